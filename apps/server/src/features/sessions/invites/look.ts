/**
 * Look-only links: what one shows to whoever opens it, without an account (GET /api/look/:token
 * and the live socket's `?look=`). The gate decides from the permissions table's "view by link":
 * the caller is `look` while the link is look-only, not revoked and not expired, and the session
 * must be active; anything else is 404, the same for a link that never existed.
 */
import crypto from "node:crypto";
import {
  ErrorCode,
  fromCents,
  INVITE_TOKEN_LENGTH,
  type GateVerdict,
  type LookView,
} from "@cartner/contract";
import { sql } from "drizzle-orm";
import { executeRows } from "../../../db/client.ts";
import { AppError } from "../../../lib/errors.ts";
import { countedLines, productOf, type CartView } from "../../carts/index.ts";
import type { SessionDeps } from "../deps.ts";

type LookDeps = Pick<SessionDeps, "db" | "clock" | "media">;

const TOKEN_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${INVITE_TOKEN_LENGTH}}$`);
export const LOOK_GONE_MESSAGE =
  "This link does not work any more: it was revoked, it expired, or the shop is over.";
const lookGone = () => new AppError(404, ErrorCode.NOT_FOUND, LOOK_GONE_MESSAGE);

/** The link a look-only view is opened by, as the live socket keeps it. */
export interface LookLink {
  linkId: string;
  sessionId: string;
  expiresAt: Date;
}

/**
 * The lines a look-only viewer gets: those the cart counts (an unavailable product's line is not
 * bought, as checkout leaves it out), but no private line (hidden from any member: the link may
 * reach whoever it is hidden from); the total is theirs. This is the one place that chooses.
 */
export function linesForLook(view: CartView): CartView["lines"] {
  const counted = countedLines(view);
  return counted.some((l) => l.hiddenFrom.length > 0)
    ? counted.filter((l) => l.hiddenFrom.length === 0)
    : counted;
}

/** The view as the link shows it: names, quantities, pictures, notes, the total; no member. */
export function lookViewOf(view: CartView, media: LookDeps["media"]): LookView {
  const lines = linesForLook(view);
  return {
    sessionName: view.session.name,
    lines: lines.map((l) => ({
      name: l.productName,
      quantity: l.quantity,
      imageUrl: productOf(l, media).imageUrl,
      note: l.note,
    })),
    total: fromCents(lines.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0)),
    updatedAt: new Date(view.cart.updatedAt).toISOString(),
  };
}

/**
 * Opens a look-only link by its token (the public route, the socket's opening) or by its id (the
 * socket's refresh after a change): the view and the link, or 404 when the gate refuses.
 */
export async function openLook(
  deps: LookDeps,
  by: { token: string } | { linkId: string },
): Promise<{ view: LookView; link: LookLink }> {
  if ("token" in by && !TOKEN_PATTERN.test(by.token)) throw lookGone();
  const now = deps.clock.now().toISOString();
  const where =
    "token" in by
      ? sql`l.token_hash = ${crypto.createHash("sha256").update(by.token).digest("hex")}`
      : sql`l.id = ${by.linkId}`;
  // One statement: the link, the gate's verdict on it, and the cart only when it allows.
  const [row] = await executeRows<{
    id: string;
    session_id: string;
    expires_at: string | Date;
    verdict: GateVerdict;
    view: CartView | null;
  }>(
    deps.db,
    sql`
    select asked.id, asked.session_id, asked.expires_at, asked.verdict,
      case when asked.verdict = 'ok' then cart_view(asked.cart_id) end as view
    from (
      select l.id, l.session_id, l.expires_at, c.id as cart_id,
        session_gate('session.viewByLink',
          case when l.look_only and l.revoked_at is null and l.expires_at > ${now}::timestamptz
            then 'look' end,
          s.status, null, null, null, ${now}::timestamptz) as verdict
      from invite_links l
      join sessions s on s.id = l.session_id
      join carts c on c.session_id = s.id
      where ${where}
    ) asked`,
  );
  if (!row || row.verdict !== "ok" || !row.view) throw lookGone();
  return {
    view: lookViewOf(row.view, deps.media),
    link: { linkId: row.id, sessionId: row.session_id, expiresAt: new Date(row.expires_at) },
  };
}

/** The view by the link's id, or null once the link no longer works (the live socket's reads). */
export async function lookViewById(deps: LookDeps, linkId: string): Promise<LookView | null> {
  try {
    return (await openLook(deps, { linkId })).view;
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  }
}
