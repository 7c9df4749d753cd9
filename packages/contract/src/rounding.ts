/**
 * Rounding exact amounts to cents, fairly: the largest-remainder method for a list, and a
 * controlled rounding for a table (every cell the floor or the ceiling of its exact value, rows
 * and columns adding up to given totals). Ties go by an order drawn from a seed (the cart's id),
 * so one cart always rounds the same way, on the server and on the web, while across carts no
 * member is always the one who gets the extra cent. Zod-free: the web computes previews with it.
 */
import { add, floorDiv, overCommon, ratio, type Rational } from "./rational.ts";

const plus = (a: number, b: number) => a + b;

/**
 * 32-bit FNV-1a of the UTF-16 code units of `text`: small, fast, the same everywhere. `hash`
 * continues a hash (of a prefix) instead of starting afresh.
 */
export function fnv1a(text: string, hash = 0x811c9dc5): number {
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * The tie order of `ids` under `seed`: each id's rank (0 first), by the hash of `${seed}:${id}`,
 * then by id. Not by id or name alone, which would give every tie to the same member.
 */
export function tieRanks(seed: string, ids: readonly string[]): number[] {
  const prefix = fnv1a(`${seed}:`);
  const hashes = ids.map((id) => fnv1a(id, prefix));
  const ranks = new Array<number>(ids.length);
  [...ids.keys()]
    .sort((a, b) => hashes[a]! - hashes[b]! || (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0))
    .forEach((index, rank) => (ranks[index] = rank));
  return ranks;
}

/**
 * Exact values as whole cents and what is left: value i = floors[i] + rems[i] / den, with
 * 0 <= rems[i] < den. Numbers when every numerator is below 2^53 (the usual cart), BigInts
 * otherwise; the rounding below only compares remainders, so it takes either.
 */
export interface Parts {
  floors: number[];
  rems: readonly (number | bigint)[];
}

/** Rationals as Parts, over their common denominator. */
export function partsOf(values: readonly Rational[]): Parts {
  const { nums, den } = overCommon(values);
  const floors = nums.map((n) => floorDiv(n, den));
  return { floors: floors.map(Number), rems: nums.map((n, i) => n - floors[i]! * den) };
}

/** Integer numerators (|n| < 2^53) over a positive integer denominator as Parts. */
export function partsOfNumbers(nums: readonly number[], den: number): Parts {
  const floors = nums.map((n) => Math.floor(n / den));
  const rems = nums.map((n, i) => n - floors[i]! * den);
  // Float division may miss the floor by one where n / den is within an ulp of an integer.
  rems.forEach((r, i) => {
    if (r < 0 || r >= den) {
      const step = r < 0 ? -1 : 1;
      floors[i]! += step;
      rems[i] = r - step * den;
    }
  });
  return { floors, rems };
}

/** Ceilings of Parts. */
export const ceilings = (x: Parts): number[] =>
  x.floors.map((f, i) => f + (x.rems[i]! > 0 ? 1 : 0));

const byRemainder =
  (rems: Parts["rems"], ranks: readonly number[]) =>
  (a: number, b: number): number =>
    rems[a]! > rems[b]! ? -1 : rems[a]! < rems[b]! ? 1 : ranks[a]! - ranks[b]!;

/**
 * Rounds each exact value to a whole cent so that they add up to `total`: each the floor of its
 * value, and one cent more for the largest remainders, ties by `ranks` (lowest first). `total`
 * must be between the sum of the floors and the sum of the ceilings, as it is whenever it is the
 * sum of the values (rounded).
 */
export function largestRemainder(
  exact: readonly Rational[] | Parts,
  total: number,
  ranks: readonly number[],
): number[] {
  const { floors, rems } = "floors" in exact ? exact : partsOf(exact);
  const cents = [...floors];
  let left = total - cents.reduce(plus, 0);
  for (const i of [...cents.keys()].sort(byRemainder(rems, ranks))) {
    if (left <= 0) break;
    cents[i]! += 1;
    left -= 1;
  }
  return cents;
}

/**
 * A controlled rounding of a table: every cell the floor or the ceiling of its exact value, each
 * row adding up to its target and each column to its target. The cents the floors leave go to
 * the largest remainders whose row and column still need one (ties by the rows' ranks, then the
 * columns'), then along augmenting paths where that leaves a row short (a bipartite matching:
 * it finds one whenever one exists).
 *
 * Targets that are roundings of the exact sums do not always admit one (rows of ½, ½, ½, ½ with
 * the first two in one column and the last two in another, columns 1 and 1, rows 1, 1, 0, 0).
 * Then the `flex` side's targets move: each stays the floor or ceiling of its exact sum (with
 * integer targets on the other side that always exists: the exact table is a point of a flow
 * polytope, whose vertices are integral), starting from the given targets; only if even that
 * fails they widen a cent at a time (never seen with targets that are roundings of the rows).
 */
export function roundTable(
  exact: readonly (readonly Rational[])[],
  rowTargets: readonly number[],
  colTargets: readonly number[],
  ranks: { rows: readonly number[]; cols: readonly number[] },
  flex: "rows" | "cols",
): number[][] {
  const [fixed, moving] = flex === "cols" ? [rowTargets, colTargets] : [colTargets, rowTargets];
  const [r, c] = [fixed.length, moving.length];
  const at =
    flex === "cols"
      ? (i: number, j: number) => exact[i]![j]!
      : (i: number, j: number) => exact[j]![i]!;
  const cells = Array.from({ length: r * c }, (_, k) => at(Math.floor(k / c), k % c));
  const sums = Array.from({ length: c }, (_, j) =>
    cells.filter((_, k) => k % c === j).reduce(add, ratio(0n)),
  );
  const bounds = partsOf(sums);
  const [fixedRanks, movingRanks] =
    flex === "cols" ? [ranks.rows, ranks.cols] : [ranks.cols, ranks.rows];
  const result = roundParts(partsOf(cells), fixed, moving, bounds, {
    rows: fixedRanks,
    cols: movingRanks,
  });
  return flex === "cols"
    ? result
    : Array.from({ length: c }, (_, j) => result.map((row) => row[j]!));
}

/**
 * roundTable on Parts (row-major, `rowTargets.length` rows): the rows' targets are met, the
 * columns' are moved if they must, within `colSums` (each column's exact sum) rounded down or up.
 */
export function roundParts(
  cells: Parts,
  rowTargets: readonly number[],
  colTargets: readonly number[],
  colSums: Parts,
  ranks: { rows: readonly number[]; cols: readonly number[] },
): number[][] {
  const rows = rowTargets.length;
  const cols = colTargets.length;
  const { floors, rems } = cells;
  const rowNeed = [...rowTargets];
  const colFloor = new Array<number>(cols).fill(0);
  const open: number[] = [];
  for (let k = 0; k < rows * cols; k++) {
    rowNeed[Math.floor(k / cols)]! -= floors[k]!;
    colFloor[k % cols]! += floors[k]!;
    if (rems[k]! > 0) open.push(k);
  }
  const lo = colSums.floors;
  const hi = ceilings(colSums);
  // The open cells, largest remainder first, ties by the rows' ranks then the columns': the
  // greedy pass's order. Nothing depends on the order the rows came in.
  const rankOf = (k: number) => ranks.rows[Math.floor(k / cols)]! * cols + ranks.cols[k % cols]!;
  open.sort((a, b) => (rems[a]! > rems[b]! ? -1 : rems[a]! < rems[b]! ? 1 : rankOf(a) - rankOf(b)));

  for (let widen = -1; widen <= rows + 1; widen++) {
    // widen -1: the targets as given. From 0: the columns anywhere in [floor - widen, ceil + widen]
    // of their exact sums, by an extra row (index `rows`) whose cents in a column lower it from
    // the top. Cells are flat: row i, column j at i * cols + j.
    const extra = widen >= 0;
    const need = [...rowNeed, 0];
    const colNeed = colTargets.map((t, j) => (extra ? hi[j]! + widen : t) - colFloor[j]!);
    const cap = (k: number) =>
      k >= rows * cols ? hi[k % cols]! - lo[k % cols]! + 2 * widen : rems[k]! > 0 ? 1 : 0;
    const given = new Array<number>((rows + 1) * cols).fill(0);
    if (extra) {
      need[rows] = colNeed.reduce(plus, 0) - rowNeed.reduce(plus, 0);
      // Its cents first where they keep a column at its target.
      for (const j of ranked(ranks.cols)) {
        const g = Math.min(hi[j]! + widen - colTargets[j]!, cap(rows * cols + j), colNeed[j]!);
        if (g <= 0 || need[rows]! <= 0) continue;
        given[rows * cols + j] = Math.min(g, need[rows]!);
        colNeed[j]! -= given[rows * cols + j]!;
        need[rows]! -= given[rows * cols + j]!;
      }
    }
    if (need.some((x) => x < 0) || colNeed.some((x) => x < 0)) continue;
    for (const k of open) {
      const [i, j] = [Math.floor(k / cols), k % cols];
      if (need[i]! > 0 && colNeed[j]! > 0) {
        given[k] = 1;
        need[i]! -= 1;
        colNeed[j]! -= 1;
      }
    }
    if (need.some((x) => x > 0)) {
      const order = [...ranked(ranks.rows), ...(extra ? [rows] : [])];
      const colOrder = ranked(ranks.cols);
      for (let progress = true; progress;) {
        progress = false;
        for (const i of order) {
          while (need[i]! > 0 && augment(i, order, colOrder, given, cap, colNeed)) {
            need[i]! -= 1;
            progress = true;
          }
        }
      }
    }
    if (need.every((x) => x === 0) && colNeed.every((x) => x === 0)) {
      const result: number[][] = [];
      for (let i = 0; i < rows; i++) {
        const row: number[] = [];
        for (let j = 0; j < cols; j++) row.push(floors[i * cols + j]! + given[i * cols + j]!);
        result.push(row);
      }
      return result;
    }
  }
  throw new RangeError("roundTable: a row target is not a rounding of its row");
}

/** Indices by rank, lowest first. */
const ranked = (ranks: readonly number[]) =>
  [...ranks.keys()].sort((a, b) => ranks[a]! - ranks[b]!);

/**
 * One more cent for row `start`: a path row → column (a cell with room) → row (a cell given,
 * taken back) → ... ending at a column still short. Breadth first, rows and columns in tie
 * order, so the result is deterministic. `given` and `cap` are by flat cell index.
 */
function augment(
  start: number,
  rowOrder: readonly number[],
  colOrder: readonly number[],
  given: number[],
  cap: (k: number) => number,
  colNeed: number[],
): boolean {
  const cols = colOrder.length;
  const rowOfCol = new Map<number, number>();
  const colOfRow = new Map<number, number>([[start, -1]]);
  const queue = [start];
  for (let q = 0; q < queue.length; q++) {
    const i = queue[q]!;
    for (const j of colOrder) {
      if (rowOfCol.has(j) || given[i * cols + j]! >= cap(i * cols + j)) continue;
      rowOfCol.set(j, i);
      if (colNeed[j]! > 0) {
        // Give each path cell row → column, take back each column → row cell.
        for (let col = j; ;) {
          const row = rowOfCol.get(col)!;
          given[row * cols + col]! += 1;
          const back = colOfRow.get(row)!;
          if (back === -1) break;
          given[row * cols + back]! -= 1;
          col = back;
        }
        colNeed[j]! -= 1;
        return true;
      }
      for (const k of rowOrder) {
        if (!colOfRow.has(k) && given[k * cols + j]! > 0) {
          colOfRow.set(k, j);
          queue.push(k);
        }
      }
    }
  }
  return false;
}
