/** The commands of the model test, weighted by how often a group does each. */
import fc from "fast-check";
import { Adjust, DeleteAccount, Dispute, PriceFree } from "./changes.ts";
import { MarkPaid, Settle, Transfer } from "./settling.ts";
import type { Cmd } from "./step.ts";

export { Adjust, DeleteAccount, Dispute, PriceFree } from "./changes.ts";
export { MarkPaid, Settle, Transfer } from "./settling.ts";
export { Unexpected, type Real } from "./step.ts";

const n = fc.nat(1000);
/** Every command, weighted by how often a group does it. */
export const commandArbitraries: fc.Arbitrary<Cmd>[] = [
  fc.tuple(n, n).map(([o, w]) => new MarkPaid(o, w)),
  fc.tuple(n, n).map(([o, w]) => new MarkPaid(o, w)),
  fc.tuple(n, n, fc.boolean()).map(([o, c, v]) => new Settle(o, c, v || c % 4 !== 0)),
  fc.tuple(n, n).map(([o, c]) => new Settle(o, c, true)),
  fc
    .tuple(
      n,
      n,
      fc.constantFrom("match", "plan", "wrong", "credit_back") as fc.Arbitrary<
        "match" | "plan" | "wrong" | "credit_back"
      >,
    )
    .map(([p, a, m]) => new Transfer(p, a, m)),
  fc.tuple(n, n).map(([p, a]) => new Transfer(p, a, "match")),
  fc
    .tuple(n, n, n, n, fc.boolean())
    .map(([o, k, l, v, ok]) => new Adjust(o, k, l, v, ok || v % 5 !== 0)),
  fc.tuple(n, n, n, n).map(([o, k, l, v]) => new Adjust(o, k, l, v, true)),
  fc.tuple(n, n, n, fc.boolean()).map(([o, l, v, s]) => new PriceFree(o, l, v, s)),
  fc.tuple(n, n, n).map(([o, w, a]) => new Dispute(o, w, a)),
  n.map((w) => new DeleteAccount(w)),
];
