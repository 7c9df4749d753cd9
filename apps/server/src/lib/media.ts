/**
 * Absolute URLs of the media the app serves, built from PUBLIC_URL, never from the origins CORS
 * allows: any client on any origin, a mobile app or a partner's site, can show them (the routes
 * send Cross-Origin-Resource-Policy: cross-origin). The one place these URLs are written.
 */
export function createMedia(publicUrl: string) {
  const origin = publicUrl.replace(/\/+$/, "");
  return {
    /** A seeded product picture; the file name changes when the picture does. */
    productImage: (slug: string, hash: string) =>
      `${origin}/api/catalog/images/${productImageFile(slug, hash)}`,
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

/** Images and avatars may be embedded by pages on other origins. */
export const CROSS_ORIGIN_RESOURCE = ["cross-origin-resource-policy", "cross-origin"] as const;
