import crypto from "node:crypto";
import type { ProductCategory } from "@cartner/contract";
import { TINTS } from "../../db/seed-images.ts";

/** Up to two initials of a name's words (letters and digits only), upper-cased. */
export function initialsOf(name: string): string {
  const words = name.match(/[\p{L}\p{N}]+/gu) ?? [];
  return words
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join("");
}

/**
 * The picture of an imported product until it has one of its own: its category's tinted card
 * with the name's initials. Small (about 600 bytes), so a catalog of many thousands stays light;
 * returns the SVG and a short content hash (part of its URL).
 */
export function drawPlaceholder(
  name: string,
  category: ProductCategory,
): { svg: string; hash: string } {
  const [light, dark] = TINTS[category];
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" height="400">`,
    `<defs><linearGradient id="ph-${light.slice(1)}" x1="0" y1="0" x2="1" y2="1">`,
    `<stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${dark}"/></linearGradient></defs>`,
    `<rect width="400" height="400" fill="url(#ph-${light.slice(1)})"/>`,
    `<circle cx="200" cy="190" r="110" fill="#ffffff" opacity=".55"/>`,
    `<text x="200" y="190" text-anchor="middle" dominant-baseline="central" font-family="system-ui,sans-serif"`,
    ` font-size="96" font-weight="600" fill="#334155">${initialsOf(name)}</text>`,
    `</svg>`,
  ].join("");
  const hash = crypto.createHash("sha256").update(svg).digest("hex").slice(0, 10);
  return { svg, hash };
}

/** A URL-safe slug for a feed's id (unique through a short hash of the id itself). */
export function slugOf(key: string): string {
  const readable = key
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  const hash = crypto.createHash("sha256").update(key).digest("hex").slice(0, 8);
  return `feed-${readable ? `${readable}-` : ""}${hash}`;
}
