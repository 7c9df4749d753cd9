import { meter } from "./metrics.ts";

/**
 * Group commit (docs/decisions/012): calls made while a batch is on its way wait, then go
 * together as the next batch, so the database commits once for all of them. The first call after
 * a quiet spell waits only for the end of the current turn of the event loop (setImmediate, no
 * timer), so the requests read in the same turn join it: the embedded database runs on this
 * thread, and without that turn each request would finish before the next one is read. Each caller
 * gets its own answer, in order; if the batch as a whole fails, every caller in it gets that error.
 * Each batch's size is a metric, under `name`.
 */
export function groupCommit<In, Out>(
  runBatch: (items: In[]) => Promise<Out[]>,
  maxBatch = 64,
  name = "other",
): (item: In) => Promise<Out> {
  let queue: Array<{ item: In; resolve: (out: Out) => void; reject: (error: unknown) => void }> =
    [];
  let running = false;

  async function drain() {
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      meter.batch(name, batch.length);
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

/**
 * Group commit per key: calls with the same key queue behind each other as above, and calls with
 * different keys run side by side. On PostgreSQL the changes to one cart would otherwise each hold
 * a pool connection while they wait for that cart's row lock; queued here they hold none, and the
 * ones waiting go in together as one statement and one commit.
 */
export function groupCommitBy<In, Out>(
  keyOf: (item: In) => string,
  runBatch: (items: In[]) => Promise<Out[]>,
  maxBatch = 64,
  name = "other",
): (item: In) => Promise<Out> {
  const lanes = new Map<string, { call: (item: In) => Promise<Out>; waiting: number }>();
  return (item) => {
    const key = keyOf(item);
    let lane = lanes.get(key);
    if (!lane) {
      lane = { call: groupCommit(runBatch, maxBatch, name), waiting: 0 };
      lanes.set(key, lane);
    }
    const current = lane;
    current.waiting += 1;
    // A key with nothing waiting is forgotten, so the map holds only the keys in use.
    return current.call(item).finally(() => {
      current.waiting -= 1;
      if (current.waiting === 0 && lanes.get(key) === current) lanes.delete(key);
    });
  };
}
