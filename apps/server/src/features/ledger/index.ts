/** What other features use of the ledger: reading pairs and shares, and posting entries. */
export {
  PART_KINDS,
  bookJson,
  pairsOfJson,
  SETTLING_KINDS,
  owedBy,
  owingOf,
  pairsOfOrder,
  pairsOfOrders,
  shareBook,
  type Claim,
  type Owing,
  type Pair,
  type ShareBook,
} from "./book.ts";
export {
  claimsOf,
  forgivenessKept,
  partMoves,
  post,
  settlementOf,
  voids,
  type LedgerEvent,
  type Part,
  type Posting,
  type Settlement,
} from "./post.ts";
