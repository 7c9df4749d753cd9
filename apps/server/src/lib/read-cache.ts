/**
 * Answers of member-only reads (a cart, a session, a summary), remembered per user until the next
 * successful write anywhere in this process. Only correct when this process sees every write, so
 * it is used on the embedded default (one instance) and off on PostgreSQL.
 */
export function createReadCache(enabled: boolean, maxEntries = 5_000) {
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
      if (!enabled) return compute();
      const key = `${request.auth.user._id} ${request.url}`;
      if (entries.has(key)) return entries.get(key) as T;
      const started = epoch;
      const answer = await compute();
      // A write that finished meanwhile may be missing from this answer: do not keep it.
      if (started === epoch) {
        if (entries.size >= maxEntries) entries = new Map();
        entries.set(key, answer);
      }
      return answer;
    },
  };
}

export type ReadCache = ReturnType<typeof createReadCache>;
