import type { Session } from "@cartner/contract";

function time(value: string): number {
  const t = Date.parse(value);
  return Number.isNaN(t) ? 0 : t;
}

/** Sessions most recently changed first, by updatedAt. */
export function newestFirst<T extends Pick<Session, "updatedAt">>(sessions: readonly T[]): T[] {
  return [...sessions].sort((a, b) => time(b.updatedAt) - time(a.updatedAt));
}
