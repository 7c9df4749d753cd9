/**
 * Absolute URLs of the media the app serves, built from PUBLIC_URL, never from the origins CORS
 * allows: any client on any origin, a mobile app or a partner's site, can show them (the routes
 * send Cross-Origin-Resource-Policy: cross-origin). The one place these URLs are written.
 */
export function createMedia(publicUrl: string) {
  const origin = publicUrl.replace(/\/+$/, "");
  return {
    /**
     * A product's picture (its photo's large size, or its drawn SVG); the file name changes when
     * the picture does.
     */
    productImage: (slug: string, hash: string, type: "svg" | "webp" = "svg") =>
      `${origin}/api/catalog/images/${
        type === "webp" ? productPhotoFile(slug, hash, "large") : productImageFile(slug, hash)
      }`,
    /** The picture of a free line (something not in the catalog), a file of the web app. */
    freeLineImage: () => `${origin}/free-line.svg`,
    /** A user's avatar; with `updatedAt`, a versioned URL that may be cached for good. */
    userAvatar: (userId: string, updatedAt?: Date | null) =>
      `${origin}/api/users/${userId}/avatar${updatedAt ? `?v=${updatedAt.getTime()}` : ""}`,
    /** The avatar drawn for any seed (a user id without an upload, a session code). */
    generatedAvatar: (seed: string) => `${origin}/api/avatars/${encodeURIComponent(seed)}.svg`,
    /** A page of the web app, for links in mails and invite links ("/orders/..."). */
    page: (path: string) => `${origin}${path}`,
    /** The web app's page of an order (links in mails). */
    orderPage: (orderId: string) => `${origin}/orders/${orderId}`,
  };
}

export type Media = ReturnType<typeof createMedia>;

export const productImageFile = (slug: string, hash: string) => `${slug}-${hash}.svg`;

/**
 * A product photo's two sizes, as square WebP images of this many pixels a side. The width is in
 * the file name ("-800.webp"), so a client can ask for the other size (a srcset) from one URL.
 */
export const PHOTO_SIZES = { small: 320, large: 800 } as const;
export type PhotoSize = keyof typeof PHOTO_SIZES;

export const productPhotoFile = (slug: string, hash: string, size: PhotoSize) =>
  `${slug}-${hash}-${PHOTO_SIZES[size]}.webp`;

/** The slug, hash and size a photo's file name holds, or undefined for another name. */
export function parseProductPhotoFile(
  file: string,
): { slug: string; hash: string; size: PhotoSize } | undefined {
  const match = /^([a-z0-9-]+)-([0-9a-f]{10})-(\d+)\.webp$/.exec(file);
  if (!match) return undefined;
  const size = (Object.keys(PHOTO_SIZES) as PhotoSize[]).find(
    (name) => String(PHOTO_SIZES[name]) === match[3],
  );
  return size ? { slug: match[1]!, hash: match[2]!, size } : undefined;
}

/** Images and avatars may be embedded by pages on other origins. */
export const CROSS_ORIGIN_RESOURCE = ["cross-origin-resource-policy", "cross-origin"] as const;
