import { QUANTITY_MAX, type CartWriteBatchResult, type CartWriteResult } from "@cartner/contract";
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { groupCommit, groupCommitBy } from "../../lib/group-commit.ts";
import type { CartView } from "./view.ts";

/** cart_write()'s answer (a batch's row also carries its error): the contract's schemas. */
export type WriteResult = CartWriteResult & Partial<Pick<CartWriteBatchResult, "error">>;

export type WriteOp = "add" | "step" | "remove" | "restore" | "clear";

/** One cart_write() call's arguments, as cart_write_batch() reads them (db/functions). */
export interface WriteCall {
  op: WriteOp;
  cart: string;
  user: string;
  product: string | null;
  line: string | null;
  /** How many an add puts in. */
  quantity: number | null;
  /** A step: +1 or -1. */
  change: 1 | -1 | null;
  /** Restore's window: how long after a removal it can still be undone. */
  restoreSeconds: number | null;
  /** An add private from the start: the members its new line is hidden from (each once). */
  hiddenFrom: string[] | null;
  now: string;
}

/** The line writes' group-commit queue: changes that queue up go in as one cart_write_batch(). */
export interface CartWriteQueue {
  write(call: WriteCall): Promise<WriteResult>;
}

/** One change on its own: cart_write(). */
async function writeOne(rows: Database["rows"], call: WriteCall): Promise<WriteResult> {
  const [result] = await rows<WriteResult>(sql`
    select * from cart_write(${call.op}::text, ${call.cart}::uuid, ${call.user}::uuid,
      ${call.product}::uuid, ${call.line}::uuid, ${call.quantity}::integer,
      ${call.change}::integer, ${call.restoreSeconds}::integer, ${QUANTITY_MAX}::integer,
      ${call.now}::timestamptz, ${call.hiddenFrom ? `{${call.hiddenFrom.join(",")}}` : null}::uuid[])`);
  return result!;
}

/** A batch of changes: cart_write_batch(), one statement and one commit (one alone: cart_write()). */
async function runBatch(rows: Database["rows"], calls: WriteCall[]): Promise<WriteResult[]> {
  if (calls.length === 1) return [await writeOne(rows, calls[0]!)];
  const results = await rows<WriteResult>(
    sql`select * from cart_write_batch(${JSON.stringify(calls)}::json, ${QUANTITY_MAX}::integer)`,
  );
  // A cart's view comes once, on the row of its last change in the batch (cart_write_batch.sql); its
  // earlier changes answer with it too.
  const lastView = new Map<string, CartView>();
  for (let i = results.length - 1; i >= 0; i--) {
    const result = results[i]!;
    if (!["ok", "pending", "unchanged"].includes(result.verdict)) continue;
    if (result.view) lastView.set(calls[i]!.cart, result.view);
    else result.view = lastView.get(calls[i]!.cart) ?? null;
  }
  return results;
}

/**
 * The cart line writes' group-commit queue (decision 012), created once per app: the one piece of
 * the carts feature with state (the changes waiting for the batch on its way). Changes that queue
 * up go in as one statement and one commit; `batching` says how: "all", one batch at a time for
 * every cart (the embedded database runs one statement at a time anyway); "per-cart", one batch at
 * a time per cart, carts side by side (PostgreSQL: a change waiting for its cart holds no pool
 * connection).
 */
export function createCartWriteQueue(deps: {
  rows: Database["rows"];
  batching: "all" | "per-cart";
}): CartWriteQueue {
  const run = (calls: WriteCall[]) => runBatch(deps.rows, calls);
  const callCartWrite =
    deps.batching === "all"
      ? groupCommit(run, undefined, "cart_writes")
      : groupCommitBy((call: WriteCall) => call.cart, run, undefined, "cart_writes");

  return { write: callCartWrite };
}
