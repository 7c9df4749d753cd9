import crypto from "node:crypto";
import { createRequire } from "node:module";
import type { ProductCategory } from "@cartner/contract";

interface IconSet {
  width?: number;
  height?: number;
  icons: Record<string, { body: string; width?: number; height?: number }>;
}

/** A soft tint per category, so the grid reads at a glance. */
export const TINTS: Record<ProductCategory, [string, string]> = {
  Electronics: ["#e0e7ff", "#c7d2fe"],
  Clothing: ["#fce7f3", "#fbcfe8"],
  "Home & Kitchen": ["#ffedd5", "#fed7aa"],
  Beauty: ["#fae8ff", "#f5d0fe"],
  "Sports & Outdoors": ["#dcfce7", "#bbf7d0"],
  Food: ["#fef3c7", "#fde68a"],
  Drinks: ["#e0f2fe", "#bae6fd"],
  Groceries: ["#ecfccb", "#d9f99d"],
};

let iconSet: IconSet | undefined;

/** The icon set is 9 MB of JSON: load it only when drawing (at seed time), never per request. */
function icons(): IconSet {
  iconSet ??= createRequire(import.meta.url)(
    "@iconify-json/fluent-emoji-flat/icons.json",
  ) as IconSet;
  return iconSet;
}

/** Releases the icon set once the seed is done. */
export function releaseIcons(): void {
  iconSet = undefined;
}

/**
 * Draws a product picture: a tinted square card with a soft floor shadow and the product's emoji
 * (Fluent Emoji Flat, MIT, by Microsoft) in the middle. Returns the SVG and a short content hash.
 */
export function drawProductImage(
  icon: string,
  category: ProductCategory,
): { svg: string; hash: string } {
  const set = icons();
  const found = set.icons[icon];
  if (!found) throw new Error(`unknown icon ${icon}`);
  const size = found.width ?? set.width ?? 32;
  const [light, dark] = TINTS[category];
  // Ids inside the icon (gradients) are prefixed so that several images on one page cannot clash.
  const body = found.body
    .replace(/id="([^"]+)"/g, `id="${icon}-$1"`)
    .replace(/url\(#([^)]+)\)/g, `url(#${icon}-$1)`);
  const scale = 220 / size;
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400">`,
    `<defs><linearGradient id="bg-${icon}" x1="0" y1="0" x2="1" y2="1">`,
    `<stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${dark}"/></linearGradient></defs>`,
    `<rect width="400" height="400" fill="url(#bg-${icon})"/>`,
    `<circle cx="330" cy="70" r="46" fill="#ffffff" opacity=".35"/>`,
    `<ellipse cx="200" cy="318" rx="112" ry="16" fill="#0f172a" opacity=".08"/>`,
    `<g transform="translate(90 82) scale(${scale})">${body}</g>`,
    `</svg>`,
  ].join("");
  const hash = crypto.createHash("sha256").update(svg).digest("hex").slice(0, 10);
  return { svg, hash };
}
