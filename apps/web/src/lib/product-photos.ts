/**
 * A product photo's URL names its width ("…-800.webp"): the server keeps every photo in two
 * square sizes, so the browser can take the one the layout needs. A drawn picture (SVG) has one
 * file for every size.
 */
const PHOTO = /-(320|800)\.webp$/;

/** The `srcset` of a photo's two sizes; undefined for a drawn picture. */
export function photoSrcSet(src: string): string | undefined {
  if (!PHOTO.test(src)) return undefined;
  return `${src.replace(PHOTO, "-320.webp")} 320w, ${src.replace(PHOTO, "-800.webp")} 800w`;
}

/** The small size of a photo (a thumbnail); a drawn picture as it is. */
export const smallPhoto = (src: string) => src.replace(PHOTO, "-320.webp");
