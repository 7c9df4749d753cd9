/**
 * The session's summary just before checkout against the exact split: the cart's figures are the
 * order's, every member's share is within one cent of exact and the shares add up, and a member
 * removed before checkout carries nothing.
 */
import { exactOf, memberIds, nameOf, type World } from "./model.ts";
import type { Report } from "./read-order.ts";
import { checkReaderSummaries } from "./read-private.ts";
import type { Built } from "./world.ts";

const FIGURES = ["subtotal", "fees", "tax", "total"] as const;

export function checkSummaries(w: World, summaries: Built["summaries"], bad: Report): void {
  for (const { orderIndex, summary, readers } of summaries) {
    const o = w.orders[orderIndex]!;
    const ex = exactOf(o);
    const say = (m: string) => bad(`[summary ${orderIndex + 1}] ${m}`);
    checkReaderSummaries(w, o, readers, say);
    for (const f of FIGURES) {
      if (summary[f] !== ex[f]) say(`${f} ${summary[f]}, the model ${ex[f]}`);
      const sum = summary.split.reduce((a, s) => a + s[f], 0);
      if (sum !== summary[f]) say(`the shares' ${f} add up to ${sum}, not ${summary[f]}`);
    }
    for (const s of summary.split) {
      const exact = ex.shares.get(s.userId);
      if (!exact) {
        if (s.total !== 0) say(`${nameOf(w, s.userId)}, not a member, carries ${s.total}`);
        continue;
      }
      for (const f of FIGURES) {
        if (!exact[f].withinOneCent(s[f])) {
          say(`${nameOf(w, s.userId)}'s ${f} ${s[f]} is not within a cent of exact ${exact[f]}`);
        }
      }
    }
    for (const m of memberIds(o)) {
      const shown = summary.split.find((s) => s.userId === m);
      if (!shown && ex.shares.get(m)!.total.sign() !== 0) say(`${nameOf(w, m)} has no share`);
    }
  }
}
