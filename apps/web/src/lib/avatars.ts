/** Our server generates avatars for any seed; no external service is used. */
export function avatarUrl(seed: string): string {
  return `/api/avatars/${encodeURIComponent(seed.trim() || "cartner")}.svg`;
}
