import { describe, expect, it } from "vitest";
import { groupCommit, groupCommitBy } from "../../src/lib/group-commit.ts";

/** A batch runner whose batches finish when the test says, recording what each one held. */
function controlledRunner() {
  const batches: number[][] = [];
  const finish: Array<() => void> = [];
  const run = (items: number[]) => {
    batches.push(items);
    return new Promise<string[]>((resolve) => {
      finish.push(() => resolve(items.map((n) => `done ${n}`)));
    });
  };
  return { batches, finish, run };
}

/**
 * The end of the current turn: a batch starts on setImmediate, and immediates run in the order
 * they were queued, so one queued after the calls runs after their batch has started. (A timer
 * would not do: on a busy machine a 1 ms timer can fire before the immediates of the same turn.)
 */
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("group commit", () => {
  it("sends the calls of one turn together, and those that come while it runs as the next batch", async () => {
    const { batches, finish, run } = controlledRunner();
    const submit = groupCommit(run);
    const first = submit(1);
    expect(batches).toEqual([]); // waits for the rest of this turn of the event loop, no longer
    await tick();
    expect(batches).toEqual([[1]]);
    const waiting = [submit(2), submit(3), submit(4)];
    await tick();
    expect(batches).toEqual([[1]]); // nothing more until the first batch is done
    finish[0]!();
    expect(await first).toBe("done 1");
    await tick();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    finish[1]!();
    expect(await Promise.all(waiting)).toEqual(["done 2", "done 3", "done 4"]);
  });

  it("caps a batch, and the rest go in the next", async () => {
    const { batches, finish, run } = controlledRunner();
    const submit = groupCommit(run, 2);
    const all = [1, 2, 3, 4, 5].map((n) => submit(n));
    await tick();
    finish[0]!();
    await tick();
    finish[1]!();
    await tick();
    finish[2]!();
    expect(await Promise.all(all)).toHaveLength(5);
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it("gives every caller of a failed batch its error, and goes on with the next batch", async () => {
    let calls = 0;
    const submit = groupCommit(async (items: number[]) => {
      calls += 1;
      if (calls === 2) throw new Error("database unavailable");
      return items.map((n) => n * 10);
    });
    expect(await submit(1)).toBe(10);
    const failed = [submit(2), submit(3)].map((p) => p.catch((e: Error) => e.message));
    expect(await Promise.all(failed)).toEqual(["database unavailable", "database unavailable"]);
    expect(await submit(4)).toBe(40);
  });

  it("refuses answers that do not match the calls one for one", async () => {
    const submit = groupCommit(async () => [1, 2]);
    await expect(submit(1)).rejects.toThrow(/2 answers for 1 calls/);
  });
});

describe("group commit per key", () => {
  it("queues calls with one key behind each other, runs other keys side by side", async () => {
    const { batches, finish, run } = controlledRunner();
    const submit = groupCommitBy((n: number) => (n % 2 === 0 ? "even" : "odd"), run);
    const first = [submit(1), submit(2)];
    await tick();
    // One batch per key at once.
    expect(batches).toEqual([[1], [2]]);
    const later = [submit(3), submit(5), submit(4)];
    await tick();
    expect(batches).toHaveLength(2); // each key waits for its own batch, no longer
    finish[1]!(); // the even key's batch
    await tick();
    expect(batches).toEqual([[1], [2], [4]]);
    finish[0]!();
    await tick();
    expect(batches).toEqual([[1], [2], [4], [3, 5]]);
    finish[2]!();
    finish[3]!();
    expect(await Promise.all([...first, ...later])).toEqual([
      "done 1",
      "done 2",
      "done 3",
      "done 5",
      "done 4",
    ]);
  });

  it("forgets a key once nothing waits on it, and starts afresh the next time", async () => {
    const { batches, finish, run } = controlledRunner();
    const submit = groupCommitBy(() => "cart", run);
    const one = submit(1);
    await tick();
    finish[0]!();
    expect(await one).toBe("done 1");
    const two = submit(2);
    await tick();
    expect(batches).toEqual([[1], [2]]);
    finish[1]!();
    expect(await two).toBe("done 2");
  });
});
