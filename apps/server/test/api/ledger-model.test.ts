/**
 * The money, proved against a reference model (PGlite and PostgreSQL). fast-check builds a world
 * of three to five people with one or two checked-out orders (every split policy and fee rule,
 * sharers, a member removed before checkout, one to three payers; about one line in four a free
 * line, a name with perhaps an estimate and a note, checked out at its estimate or 0), then runs
 * a random sequence of what groups do after checkout: "I've paid", a payer confirming, recording
 * cash or writing off, transfers (amounts that settle whole parts oldest first, the plan's
 * recordable ones, and amounts that must be refused), credits paid back, every kind of change
 * after checkout (and ones that must be refused), the payee pricing a free line (a price or a
 * substitute), disputes, and accounts deleted. Some lines are private from some members
 * (decision 049), a member who shares a line's cost among them, and one member may have an "ask
 * first" budget (decision 048): the model predicts which of their adds wait for approval; the
 * creator, or a member named approver, approves some, declines some, and leaves the rest (an
 * approver gets 404 on a line hidden from them and 403 on approving their own; the creator then
 * decides); the asker may leave, their lines removed or given to the creator (a given line still
 * waits and the creator decides it); checkout drops what still waits after refusing to wait for
 * it. After every step every reader is
 * compared with a model written apart from the server (apps/server/test/ledger-model/): the
 * order's JSON and My Orders, its ledger entries, Balances, the settle plan, pay-info, the CSV
 * and the receipt's text, and each member some lines are hidden from reads their own summary (at
 * checkout), order, My Orders, CSV and receipt: those lines left out and counted in
 * `privateCount`, the changes about them left out and the rest renumbered, the money unchanged, so
 * the lines they see plus what is private make the subtotal. The model splits in exact fractions (exact-split.ts) and keeps what
 * moved as decision 033 writes it (model.ts); nets are compared to the cent, shares and parts
 * to within one cent of exact, and their sums exactly.
 *
 * Readings where the rules leave something open (the model's, to be confirmed):
 * - A share's exact figures: its subtotal is the exact sum of its lines' parts; the order's fees
 *   and tax are the shop's (each rounded half up on the order's subtotal), spread exactly by the
 *   fee rule, tax in proportion to subtotal plus fees (to the subtotal under proportional fees);
 *   an order-level amount follows the fee rule. Each of subtotal, fees, tax and total is checked
 *   to be within one cent of exact.
 * - The exact part of a member owed to a payer is their exact share times what that payer paid
 *   the shop at checkout over what all paid; the payers' amounts shown after changes are within a
 *   cent of the adjusted total in those proportions.
 * - Two payers who both carry a share owe each other on one order only the net of their two
 *   parts (033: what B owes A is the entries B to A less A to B); the order's parts may show it
 *   on either part, so their open less credit is compared per pair.
 * - "I've paid" claims what is open to each payer beyond the claims already pending; pending
 *   claims count for the status only (no credit until confirmed); a confirm posts exactly what
 *   was claimed; cash and write-off need something open to that payer (else refused or a no-op);
 *   a member owing nothing gets 200 or 409 and nothing moves. A payee who is not a payer settles
 *   nothing (refused); the payee who owes another payer may say "I've paid".
 * - A write-off forgives what is open then. A change that raises the part later is owed again; a
 *   change that lowers it takes back what was forgiven beyond the new part, so a write-off never
 *   turns into a credit (a credit is what was paid beyond the part). The same holds for what an
 *   account deletion wrote off; a change after it is owed to the deleted payer like any other.
 * - An account deleted: what anyone owes them on any order, credits they were owed included, is
 *   written off; what they owe stays. A deleted account is never an order's payee here (the payee
 *   runs the order's changes).
 * - A share's `paid` is what its member paid the payers less credits paid back (checked for
 *   members who are not payers); its `credit` the sum of what each payer owes it back; its status
 *   is read from the pair nets (a payer-member owed more by another payer than they owe them
 *   owes nobody).
 * - In the entries, `paid` entries are pending claims (in no sum); a `confirmed` entry posts a
 *   claim; a `reversal` of the same amount as an open claim of its pair voids it (the API shows no
 *   `ref`), any other reversal is posted.
 * - pay-info: what the caller owes, on this order, the person it names (the payee today).
 * - The CSV: line rows as placed plus one adjustment row per change, each the signed amount it
 *   changed the goods or the order-level amounts by, add up to the subtotal plus order-level
 *   amounts; share rows add up to the order_total row. Settlement rows are not checked here.
 * - The receipt states the total, every share and every part, and names every payer.
 * - A free line is `free`, has no product and keeps its note; it is `estimated` until a `price` or
 *   `substituted` change names it (decision 043), whatever else changed it. A cart of free lines
 *   at 0 checks out at 0 with no shares, paid by the payee alone (no payer can pay 0); a payer
 *   named for more cents than the total has is left out. Priced, its carriers get their shares.
 *
 * Budget: MODEL_RUNS worlds (default 30) from MODEL_SEED (default fixed; "random" for a new
 * one), each 0 to 20 steps: about 70 to 90 s on PGlite or PostgreSQL on a quiet machine here. Nightly:
 * MODEL_RUNS=300 MODEL_SEED=random. A failure prints the seed, the path and the commands'
 * replayPath: MODEL_SEED, MODEL_PATH and MODEL_REPLAY replay it, MODEL_SHRINK=1 shrinks it (slow:
 * each run builds a world), MODEL_TRACE=1 prints each world and step. MODEL_SKIP, MODEL_IGNORE
 * and MODEL_SURVEY (verify.ts) help while a reader is being built. A counterexample found becomes
 * a fixed case below, its commands pasted as printed.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers.ts";
import {
  Adjust,
  commandArbitraries,
  DeleteAccount,
  Dispute,
  MarkPaid,
  PriceFree,
  Settle,
  Transfer,
  type Real,
} from "../ledger-model/commands.ts";
import { checkSummaries } from "../ledger-model/read-summary.ts";
import { report, survey, verify } from "../ledger-model/verify.ts";
import { buildWorld, worldSpec, type WorldSpec } from "../ledger-model/world.ts";
import type { World } from "../ledger-model/model.ts";

const RUNS = Number(process.env.MODEL_RUNS ?? 30);
const SEED =
  process.env.MODEL_SEED === "random"
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(process.env.MODEL_SEED ?? 20261128);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** Builds the world, checks it as checked out, then runs the steps. */
async function scenario(spec: WorldSpec, commands: Iterable<fc.AsyncCommand<World, Real>>) {
  if (process.env.MODEL_TRACE) console.info(`world: ${JSON.stringify(spec)}`);
  const { world, summaries } = await buildWorld(t, spec);
  const real: Real = { t, seen: new Map() };
  const found: string[] = [];
  checkSummaries(world, summaries, (m) => found.push(m));
  report(found, "the summaries at checkout");
  await verify(t, world, "checkout", real.seen);
  await fc.asyncModelRun(() => ({ model: world, real }), commands);
}

describe("the ledger against the reference model", () => {
  it(`agrees on every reader after every step (${RUNS} worlds, seed ${SEED})`, async () => {
    const property = fc.asyncProperty(
      worldSpec,
      fc.commands(commandArbitraries, {
        maxCommands: 20,
        ...(process.env.MODEL_REPLAY ? { replayPath: process.env.MODEL_REPLAY } : {}),
      }),
      scenario,
    );
    try {
      await fc.assert(property, {
        numRuns: RUNS,
        seed: SEED,
        ...(process.env.MODEL_PATH ? { path: process.env.MODEL_PATH } : {}),
        endOnFailure: !process.env.MODEL_SHRINK,
        includeErrorInReport: true,
      });
    } catch (error) {
      throw new Error(`MODEL_SEED=${SEED} ${(error as Error).message}`);
    } finally {
      if (survey) {
        const rows = [...survey.tally.entries()].sort((a, b) => b[1].count - a[1].count);
        console.info(
          rows.map(([, v]) => `${String(v.count).padStart(5)}  ${v.example}`).join("\n"),
        );
      }
    }
    expect(survey ? [...survey.tally.keys()] : []).toEqual([]);
  }, 1_800_000);
});

/**
 * Counterexamples found, kept as they were printed (each failed on the code it was found on);
 * left out while surveying, which tallies instead of failing.
 */
describe.skipIf(survey)("counterexamples, fixed", () => {
  const line = (product: number, adder: number, quantity = 1) => ({
    product,
    quantity,
    adder,
    sharers: [],
  });
  const free = (adder: number, estimate: number | null, sharers: number[] = []) => ({
    product: 0,
    quantity: 2,
    adder,
    sharers,
    free: { estimate, note: true },
  });
  const order = (o: Partial<WorldSpec["orders"][number]>): WorldSpec["orders"][number] => ({
    creator: 0,
    joins: [true, true, false, false],
    mode: "by_adder",
    fees: "proportional",
    weights: [100, 100, 100, 100, 100],
    lines: [line(0, 0)],
    remove: null,
    payers: [],
    ...o,
  });

  it("a write-off is no payment: a share written off, then lowered, shows nothing paid", async () => {
    await scenario(
      {
        people: 3,
        orders: [
          order({
            joins: [true, false, false, false],
            fees: "equal",
            lines: [line(0, 0), line(0, 1)],
          }),
        ],
      },
      [
        new Settle(252, 475, true) /* Ann settles Ben (written_off) on order 1 */,
        new Adjust(612, 330, 409, 666, true) /* Ann records {"kind":"missing","lineIndex":1} */,
      ],
    );
  });

  it("two payers who both carry a share owe each other the net of their parts", async () => {
    await scenario(
      {
        people: 5,
        orders: [
          order({
            creator: 3,
            joins: [true, false, true, true],
            mode: "weights",
            fees: "creator",
            weights: [50, 0, 100, 50, 0],
            lines: [line(22, 0, 3), line(22, 2), line(4, 3)],
            remove: { who: 0, lines: "give" },
            payers: [
              { who: 5, weight: 1 },
              { who: 4, weight: 1 },
              { who: 3, weight: 2 },
            ],
          }),
        ],
      },
      [],
    );
  });

  it("an equal split of two: the odd cents of subtotal, fees and tax do not all go to one", async () => {
    await scenario(
      {
        people: 5,
        orders: [
          order({
            creator: 3,
            joins: [true, true, false, false],
            mode: "equal",
            fees: "equal",
            weights: [0, 50, 100, 100, 100],
            lines: [
              line(8, 1),
              line(14, 1, 2),
              line(25, 2, 2),
              line(9, 2, 2),
              line(13, 2),
              line(17, 4, 2),
            ],
            remove: { who: 3, lines: "give" },
          }),
        ],
      },
      [],
    );
  });

  it("free lines without an estimate: checked out at 0 by the payee alone, then priced", async () => {
    await scenario(
      {
        people: 3,
        orders: [
          order({
            lines: [free(1, null), free(2, null, [0, 1])],
            payers: [{ who: 1, weight: 1 }],
          }),
        ],
      },
      // Found when the cart's lines were in no fixed order: each step prices one of the lines
      // still at an estimate, so both are priced either way.
      [
        new PriceFree(0, 0, 3, false) /* Ann prices a free line at 2.50 */,
        new MarkPaid(0, 0) /* Ben marks paid */,
        new PriceFree(0, 0, 1, true) /* Ann records the other as a substitute at 0.99 × 2 */,
        new Settle(0, 0, true) /* Ann settles Ben */,
      ],
    );
  });

  it("a member whose only line is a free line at 0 gets a share once it is priced", async () => {
    await scenario(
      {
        people: 4,
        orders: [
          order({
            joins: [true, true, true, false],
            lines: [line(3, 0), free(2, 0), free(3, 1250)],
            payers: [
              { who: 0, weight: 2 },
              { who: 1, weight: 1 },
            ],
          }),
        ],
      },
      // Cat's line at 0 and Dan's at 12.50 are both priced, in either order.
      [
        new PriceFree(0, 0, 6, false) /* Ann prices a free line at 12.99 */,
        new MarkPaid(0, 2) /* a member marks paid */,
        new Adjust(0, 0, 2, 0, true) /* Ann records a line not delivered */,
        new PriceFree(0, 0, 0, true) /* Ann records the other free line as a substitute at 0.49 */,
      ],
    );
  });

  it("a line private from Cat and waiting for approval, left and dropped: in none of Cat's figures", async () => {
    await scenario(
      {
        people: 3,
        orders: [
          order({
            lines: [line(3, 0), { ...line(5, 1, 3), hide: [0] }, line(7, 2)],
            ask: { who: 0, budget: 300, decisions: ["leave"] },
          }),
        ],
      },
      [],
    );
  });

  it("an approver, a leaver with a line waiting, and a line hidden from a member who shares it", async () => {
    await scenario(
      {
        people: 3,
        orders: [
          // Ann's line is shared by Ben and Cat and hidden from Cat. Ben asks first; Cat
          // approves: his first waiting line is hidden from her (404, Ann approves it), she
          // approves the second; Ben leaves giving Ann the third, still waiting, which she approves.
          order({
            lines: [
              { ...line(3, 0), sharers: [1, 2], hide: [1] },
              { ...line(5, 1), hide: [0] },
              line(7, 1),
              line(9, 1),
            ],
            ask: {
              who: 0,
              budget: 300,
              decisions: ["approve", "approve", "leave"],
              approver: 1,
              deciders: ["approver"],
              leave: "give",
            },
          }),
          // Ben asks first and approves: not his own line (403, Ann approves it); he declines
          // another; he leaves with the third waiting, and it goes with his lines.
          order({
            lines: [line(11, 1), line(13, 1), line(15, 1), line(17, 0)],
            ask: {
              who: 0,
              budget: 300,
              decisions: ["approve", "decline", "leave"],
              approver: 0,
              deciders: ["approver"],
              leave: "remove",
            },
            payers: [{ who: 0, weight: 1 }],
          }),
        ],
      },
      [],
    );
  });

  it("changes to a line private from Cat: her reads leave them out, renumbered; her dispute of one is 404", async () => {
    await scenario(
      {
        people: 3,
        orders: [order({ lines: [line(3, 0), { ...line(5, 1), hide: [0] }, line(7, 2)] })],
      },
      // The lines in the order added: Ben's private line is line 1, so Cat reads Ann's and her
      // own changes as changes to her lines 0 and 1, and her dispute of change 1 is 404.
      [
        new Adjust(0, 4, 0, 1, true) /* Ann refunds line 0 */,
        new Adjust(0, 4, 1, 1, true) /* Ann refunds line 1 */,
        new Adjust(0, 4, 2, 1, true) /* Ann refunds line 2 */,
        new Dispute(0, 1, 0) /* Cat disputes change 0 */,
        new Dispute(0, 1, 1) /* Cat disputes change 1 */,
        new Dispute(0, 1, 2) /* Cat disputes change 2 */,
      ],
    );
  });

  it("several payers: what Ben paid Ann beyond his lowered part is his credit, not his own part", async () => {
    await scenario(
      {
        people: 3,
        orders: [
          order({
            lines: [line(3, 1), line(5, 1), line(7, 2)],
            payers: [
              { who: 0, weight: 5 },
              { who: 1, weight: 1 },
            ],
          }),
        ],
      },
      [
        new MarkPaid(0, 0) /* Ben marks paid */,
        new Settle(0, 0, true) /* Ann settles Ben (transfer) */,
        new Adjust(0, 0, 0, 0, true) /* Ann records Ben's line 0 missing */,
        new Adjust(0, 1, 1, 1, true) /* Ann records Ben's line 1 substituted at 0.99 × 2 */,
      ],
    );
  });

  it("a payee who named another payer and not themself settles nothing (that payer deleted)", async () => {
    await scenario(
      {
        people: 3,
        orders: [
          {
            creator: 2,
            joins: [true, false, false, false],
            mode: "equal",
            fees: "creator",
            weights: [50, 50, 100, 0, 100],
            lines: [
              { product: 5, quantity: 2, adder: 1, sharers: [], free: null, hide: [] },
              {
                product: 22,
                quantity: 3,
                adder: 3,
                sharers: [],
                free: { estimate: 2999, note: true },
                hide: [],
              },
              { product: 9, quantity: 1, adder: 1, sharers: [2], free: null, hide: [] },
            ],
            remove: null,
            payers: [
              { who: 3, weight: 2 },
              { who: 1, weight: 1 },
            ],
            ask: { who: 3, budget: 300, decisions: ["approve"] },
          },
        ],
      },
      // Ann is the only payer and Cat the payee: Cat's confirming Ann was answered 200.
      [
        new Adjust(519, 54, 211, 493, true) /* Cat records a line missing */,
        new DeleteAccount(866) /* Ann deletes their account */,
        new Settle(642, 384, false) /* Cat settles Ann (transfer), refused */,
      ],
    );
  });

  it("two payers: what the one who owes by the split wrote off of a credit owed back is taken back as their part rises", async () => {
    await scenario(
      {
        people: 4,
        orders: [
          {
            creator: 1,
            joins: [false, false, true, false],
            mode: "weights",
            fees: "equal",
            weights: [50, 100, 100, 100, 100],
            lines: [
              { product: 15, quantity: 2, adder: 2, sharers: [4, 1, 3], free: null, hide: [] },
              { product: 7, quantity: 3, adder: 3, sharers: [4, 0], free: null, hide: [] },
              {
                product: 6,
                quantity: 2,
                adder: 2,
                sharers: [1, 4],
                free: { estimate: null, note: false },
                hide: [],
              },
              {
                product: 11,
                quantity: 1,
                adder: 1,
                sharers: [],
                free: { estimate: 149, note: false },
                hide: [],
              },
            ],
            remove: null,
            payers: [
              { who: 1, weight: 2 },
              { who: 0, weight: 1 },
              { who: 4, weight: 2 },
            ],
            ask: null,
          },
        ],
      },
      // Ben paid Dan beyond his part, wrote off what Dan owed him back, then an order fee raised
      // Ben's part: the book had Ben owing Dan 41 cents, the model nothing.
      [
        new PriceFree(399, 648, 781, false) /* Ben prices a free line at 4.99 */,
        new Transfer(104, 568, "match") /* Ben records paying Dan 20361 (match) */,
        new Adjust(598, 986, 240, 125, true) /* Ben records line 0 at quantity 0 */,
        new Dispute(512, 752, 510) /* Dan disputes a change */,
        new Settle(506, 845, true) /* Ben settles Dan (written_off) */,
        new Dispute(788, 20, 61) /* Dan disputes a change */,
        new Adjust(730, 485, 872, 868, true) /* Ben records an order fee of 2.50 */,
      ],
    );
  });

  it("two payers: the payee without a share owes back what Ann paid beyond her lowered part, and Ann writes it off", async () => {
    await scenario(
      {
        people: 4,
        orders: [
          {
            creator: 1,
            joins: [true, false, true, false],
            mode: "weights",
            fees: "equal",
            weights: [50, 0, 50, 50, 0],
            lines: [
              { product: 44, quantity: 3, adder: 0, sharers: [], free: null, hide: [3] },
              {
                product: 56,
                quantity: 1,
                adder: 4,
                sharers: [],
                free: { estimate: 2999, note: true },
                hide: [],
              },
              {
                product: 7,
                quantity: 3,
                adder: 3,
                sharers: [],
                free: { estimate: null, note: false },
                hide: [1, 2],
              },
            ],
            remove: { who: 0, lines: "remove" },
            payers: [
              { who: 0, weight: 3 },
              { who: 1, weight: 4 },
            ],
            ask: { who: 0, budget: 1500, decisions: ["approve", "decline", "leave"] },
          },
        ],
      },
      // Ben, the payee with weight 0, has no share but paid the shop with Ann. Ann paid him her
      // part, the substitute lowered it, and Ben owed her back the difference: her write-off of
      // it was answered 404 (no share of Ben's), the model 200.
      [
        new Transfer(310, 855, "credit_back") /* Ann records paying Ben 5722 (credit_back) */,
        new MarkPaid(947, 688) /* Ann marks paid on order 1 */,
        new DeleteAccount(535) /* Cat deletes their account */,
        new PriceFree(
          223,
          220,
          942,
          true,
        ) /* Ben records {"kind":"substituted","lineIndex":1,"name":"Swap 4","unitPrice":4.99} on order 1 */,
        new MarkPaid(545, 640) /* Ann marks paid on order 1 */,
        new Settle(687, 961, true) /* Ann settles Ben (written_off) on order 1 */,
      ],
    );
  });
});
