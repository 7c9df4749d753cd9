/**
 * A member who leaves while a line of theirs waits for approval (decision 048; members leave
 * with their lines). The asker leaves the session (`DELETE /sessions/:id/leave`)
 * with their lines removed, waiting ones too, or given to the creator. A given line becomes the
 * creator's and still waits: nobody approved it, so leaving does not make it count. The creator
 * never asks first, so a waiting line of theirs is one given to them, and they decide it like any
 * other (the adder-cannot-approve rule is for approvers, whose own lines ask someone else). The
 * leaver leaves every line's sharers and hidden-from list; a line is never hidden from its adder.
 */
import { client, type TestApp } from "../helpers.ts";
import { ok } from "./checkout.ts";
import type { Person } from "./model.ts";
import { decideOne, type AskSpec, type Asker } from "./world-private.ts";
import type { CartLine } from "./world.ts";

/** The asker leaves as the spec says; answers the lines left, as the model keeps them. */
export async function askerLeaves(
  t: TestApp,
  creator: Person,
  asker: Asker | null,
  session: { _id: string; cartId: string },
  lines: CartLine[],
  spec: AskSpec | null | undefined,
): Promise<CartLine[]> {
  if (!asker || !spec?.leave) return lines;
  const gone = asker.person;
  const how = spec.leave === "remove" ? "lines=remove" : `lines=give&to=${creator.id}`;
  ok(
    await client(t, gone.token)("DELETE", `/api/sessions/${session._id}/leave?${how}`),
    200,
    `${gone.name} leaves`,
  );
  const left = lines
    .filter((l) => spec.leave === "give" || l.adder !== gone.id)
    .map((l) => ({
      ...l,
      adder: l.adder === gone.id ? creator.id : l.adder,
      sharers: l.sharers.filter((s) => s !== gone.id),
      hiddenFrom: l.hiddenFrom.filter((s) => s !== gone.id && s !== creator.id),
    }));
  // The creator decides the lines given to them still waiting, the spec's decisions shifted by one.
  const decided = new Set<CartLine>();
  for (const [k, line] of left.filter((l) => l.pending).entries()) {
    const what = spec.decisions[(k + 1) % spec.decisions.length]!;
    if (what === "leave") continue;
    await decideOne(t, creator, session.cartId, line, what);
    if (what === "approve") line.pending = false;
    else decided.add(line);
  }
  return left.filter((l) => !decided.has(l));
}
