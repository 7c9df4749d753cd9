/** What other features use of the ledger: reading pairs and shares, and posting entries. */
export {
  PART_KINDS,
  SETTLING_KINDS,
  pairsOfOrder,
  pairsOfOrders,
  shareBook,
  type Pair,
  type ShareBook,
} from "./book.ts";
export {
  claimsOf,
  partMoves,
  post,
  settlementOf,
  voids,
  type LedgerEvent,
  type Part,
  type Posting,
  type Settlement,
} from "./post.ts";
