/**
 * Answers of member-only reads (a cart, a session, a summary), remembered per user until the next
 * successful write on any instance (decision 007): this process bumps it on its own writes, and
 * on PostgreSQL every instance's writes and live events arrive over NOTIFY and bump it too.
 * `usable` says whether it may answer now: never while this instance might miss another's write
 * (its LISTEN connection is down).
 */
export function createReadCache(usable: () => boolean, maxEntries = 5_000) {
  let epoch = 0;
  let entries = new Map<string, unknown>();

  return {
    /** Any successful write: everything remembered may be stale now. */
    bump(): void {
      epoch += 1;
      entries = new Map();
    },
    /** The remembered answer for this user and URL, or a fresh one. Answers are never mutated. */
    async read<T>(
      request: { url: string; auth: { user: { _id: string } } },
      compute: () => Promise<T>,
    ): Promise<T> {
      if (!usable()) return compute();
      const key = `${request.auth.user._id} ${request.url}`;
      if (entries.has(key)) return entries.get(key) as T;
      const started = epoch;
      const answer = await compute();
      // A write that finished meanwhile may be missing from this answer: do not keep it.
      if (started === epoch && usable()) {
        if (entries.size >= maxEntries) entries = new Map();
        entries.set(key, answer);
      }
      return answer;
    },
  };
}

export type ReadCache = ReturnType<typeof createReadCache>;
