// The install icons (manifest, Apple touch icon) drawn from the favicon; `npm run icons -w
// apps/web` writes them to public/, where they are committed (the build does not need sharp).
import { defineConfig, minimal2023Preset } from "@vite-pwa/assets-generator/config";

const BRAND = "#4F46E5";

export default defineConfig({
  headLinkOptions: { preset: "2023" },
  preset: {
    ...minimal2023Preset,
    maskable: { ...minimal2023Preset.maskable, resizeOptions: { background: BRAND } },
    apple: { ...minimal2023Preset.apple, resizeOptions: { background: BRAND } },
  },
  images: ["public/favicon.svg"],
});
