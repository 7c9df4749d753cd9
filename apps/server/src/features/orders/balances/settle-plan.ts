/**
 * The settle plan (docs/decisions/020-payers-and-settle-plan.md): the fewest transfers that settle
 * every open balance in the orders the caller is part of, each said recordable when a transfer of
 * that amount settles whole parts (transfers.ts records one).
 */
import {
  SettlePlanResponseSchema,
  fromCents,
  settlePlan,
  type PlannedTransfer,
} from "@cartner/contract";
import { sql, type SQL } from "drizzle-orm";
import type { EncodableBody } from "../../../lib/encoded-body.ts";
import { keptAnswer, keptNote } from "../../../lib/kept-answers.ts";
import { executeRows, lightRows } from "../../../db/client.ts";
import type { OrderDeps } from "../deps.ts";
import { idsText, marksOf } from "../reading/kept.ts";
import {
  beyondRefs,
  currentNames,
  namesNow,
  namesOfText,
  openBetween,
  openParts,
  openPartsBeyond,
  pairsText,
  partsBeyond,
  partsOfRefs,
  peopleOf,
  readerRefsNow,
  renamed,
  type OpenPart,
} from "./open-parts.ts";

/**
 * What a kept plan's next light query reads besides the caller's marks: the current names of its
 * people, and the marks of the people of its pairs of others (an array literal each, idsText).
 */
export interface PlanNote {
  people: string;
  others: string;
}

/** The settle plan's light query: the caller's marks, then what its kept plan's note names. */
export const settlePlanLight = (userId: string, note: PlanNote): SQL =>
  sql`select ${marksOf(idsText([userId]))} as marks, ${currentNames(note.people)} as names,
    ${marksOf(note.others)} as others`;

/**
 * The settle plan: the fewest transfers over every open part of the caller's orders (with
 * `withId`: the ones shared with them).
 */
export async function settlePlanFor(
  deps: Pick<OrderDeps, "db">,
  userId: string,
  withId?: string,
): Promise<PlannedTransfer[]> {
  const parts = await openParts(deps.db, userId, withId);
  return planOf(parts, userId, (pairs) => openPartsBeyond(deps.db, pairs, userId, withId));
}

/**
 * GET /balances/settle-plan's answer, kept per reader and `withId` (lib/kept-answers.ts) while
 * one light query reads the same: the caller's marks (reading/kept.ts), the current names of the
 * people the kept plan names, and the marks of the people of its pairs of others (their orders
 * beyond the caller's: every write of one marks both). Each part of the plan is made from rows
 * read after the marks that stand for them, or in the same statement, so it is never older than
 * they are. A plan that comes out with other people or pairs is made again with those read then.
 */
export async function settlePlanAnswer(
  deps: Pick<OrderDeps, "db" | "light">,
  userId: string,
  withId?: string,
): Promise<EncodableBody> {
  const { db } = deps;
  const key = `${userId} ${withId ?? ""}`;
  const noted = keptNote(db, "settle_plans", key);
  const note: PlanNote = noted ? (JSON.parse(noted) as PlanNote) : { people: "{}", others: "{}" };
  const [found] = await lightRows<{ marks: string; names: string; others: string }>(
    deps,
    settlePlanLight(userId, note),
  );
  const made = (names: string, others: string) => `${found!.marks} ${names} ${others}`;
  return keptAnswer(db, "settle_plans", key, made(found!.names, found!.others), async () => {
    const recorded = await partsOfRefs(db, await readerRefsNow(db, userId, withId));
    const people = peopleOf(recorded);
    const names = people === note.people ? found!.names : await namesNow(db, people);
    let others = "{}";
    let othersMarks = "0";
    const transfers = await planOf(renamed(recorded, namesOfText(names)), userId, async (pairs) => {
      if (pairs.length === 0) return [];
      others = idsText(pairs.flat());
      // The pairs' orders beyond the caller's and their people's marks, in one statement.
      const [read] = await executeRows<{ beyond: string; marks: string }>(
        db,
        sql`select ${beyondRefs(pairsText(pairs), userId, withId)} as beyond,
            ${marksOf(others)} as marks`,
      );
      othersMarks = read!.marks;
      return partsBeyond(db, pairs.length, read!.beyond);
    });
    return {
      body: JSON.stringify(SettlePlanResponseSchema.encode({ transfers })),
      made: made(names, othersMarks),
      note: JSON.stringify({ people, others } satisfies PlanNote),
    };
  });
}

/**
 * The plan over these parts (named as they are now); `beyondOf` answers, per pair of others, the
 * open parts between them on orders beyond the caller's.
 */
async function planOf(
  parts: OpenPart[],
  userId: string,
  beyondOf: (pairs: Array<[string, string]>) => Promise<OpenPart[][]>,
): Promise<PlannedTransfer[]> {
  const nets = new Map<string, number>();
  const names = new Map<string, string>();
  // A part is owed by its debtor to its payer; a credit (negative) the other way.
  for (const p of parts) {
    nets.set(p.debtorId, (nets.get(p.debtorId) ?? 0) - p.cents);
    nets.set(p.payerId, (nets.get(p.payerId) ?? 0) + p.cents);
    names.set(p.debtorId, p.debtorName);
    names.set(p.payerId, p.payerName);
  }
  const person = (id: string) => ({ _id: id, name: names.get(id) ?? "" });
  const plan = settlePlan(nets);
  // What the transfer route would take: every part open between the two (recordTransfer reads
  // the same). The caller's orders hold all of them when the caller is one of the two; between
  // two others, some may be on orders beyond the caller's (their amounts only: no names are read
  // for them), read for all such pairs at once.
  const others = plan.filter((t) => t.from !== userId && t.to !== userId);
  const beyond = await beyondOf(others.map((t) => [t.from, t.to]));
  return plan.map((t) => {
    const more = beyond[others.indexOf(t)] ?? [];
    return {
      from: person(t.from),
      to: person(t.to),
      amount: fromCents(t.cents),
      recordable: openBetween([...parts, ...more], t.from, t.to).matching.includes(t.cents),
    };
  });
}
