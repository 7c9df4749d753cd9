/**
 * Group commit (docs/decisions/012): calls made while a batch is on its way wait, then go
 * together as the next batch, so the database commits once for all of them. The first call after
 * a quiet spell waits only for the end of the current turn of the event loop (setImmediate, no
 * timer), so the requests read in the same turn join it: the embedded database runs on this
 * thread, and without that turn each request would finish before the next one is read. Each caller
 * gets its own answer, in order; if the batch as a whole fails, every caller in it gets that error.
 */
export function groupCommit<In, Out>(
  runBatch: (items: In[]) => Promise<Out[]>,
  maxBatch = 64,
): (item: In) => Promise<Out> {
  let queue: Array<{ item: In; resolve: (out: Out) => void; reject: (error: unknown) => void }> =
    [];
  let running = false;

  async function drain() {
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      try {
        const answers = await runBatch(batch.map((waiting) => waiting.item));
        if (answers.length !== batch.length) {
          throw new Error(`group commit: ${answers.length} answers for ${batch.length} calls`);
        }
        batch.forEach((waiting, i) => waiting.resolve(answers[i]!));
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    running = false;
  }

  return (item) =>
    new Promise<Out>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (running) return;
      running = true;
      // After the requests already read in this turn of the event loop have queued theirs.
      setImmediate(() => void drain());
    });
}
