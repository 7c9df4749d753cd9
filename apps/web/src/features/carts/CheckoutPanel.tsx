import { useState } from "react";
import { useNavigate } from "../../lib/router.tsx";
import { toast } from "../../lib/toast.ts";
import { CreditCard, PackageCheck } from "lucide-react";
import {
  can,
  carriesShare,
  openSettings,
  lineRemarks,
  toCents,
  type CartLine,
  type Session,
  type SessionSummary,
} from "@cartner/contract";
import { Button, ButtonLink, ConfirmDialog } from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { useAuth } from "../../lib/auth-store.ts";
import { roleIn } from "../../shared/roles.ts";
import { useCheckout, useSessionOrder } from "../../api/orders.ts";
import { useSessionCart } from "../../api/carts.ts";
import { cartLineOf } from "./cart-model.ts";
import { CheckoutPayers } from "./CheckoutPayers.tsx";
import { payerCandidates, readPayers, type PayerRowInput } from "./checkout-payers.ts";

export const CHECK_OUT_LABEL = "Check out";

/**
 * Who has said "I'm done" among the members who pay, for the confirm dialog. `ready` is the
 * server's: a mark whose share total changed since no longer counts, and says so.
 */
export function readiness(session: Session): { ready: string[]; waiting: string[] } {
  const payers = session.invitedUsers.filter((m) => carriesShare(m.role));
  return {
    ready: payers.filter((m) => m.ready).map((m) => m.name),
    waiting: payers
      .filter((m) => !m.ready)
      .map((m) => (m.shareChanged ? `${m.name} (share changed since marking done)` : m.name)),
  };
}

/** What the one who shops should know: each item's estimate, note and substitute choice. */
function ShopperNotes({ items }: { items: SessionSummary["cartItems"] }) {
  const noted = items
    .map((item) => ({ name: item.product.name, remarks: lineRemarks(item) }))
    .filter((item) => item.remarks.length > 0);
  if (noted.length === 0) return null;
  return (
    <span className="flex flex-col gap-1">
      <span className="font-semibold text-ink">For the shop</span>
      <span role="list" className="flex flex-col gap-1">
        {noted.map((item, index) => (
          <span role="listitem" key={`${item.name}-${index}`}>
            {item.name}: {item.remarks.join(" · ")}
          </span>
        ))}
      </span>
    </span>
  );
}

/**
 * The summary's last step: the creator checks out after a confirm that shows who is ready and
 * who pays the shop (the creator, or several people); once there is an order, everyone gets a
 * link to it.
 */
export function CheckoutPanel({
  session,
  sessionId,
  empty,
  total,
  shares,
  items = [],
}: {
  session: Session | undefined;
  sessionId: string;
  empty: boolean;
  /** The cart's total and shares as the server computed them (the summary's). */
  total: number;
  shares: readonly { userId: string; name: string; total: number }[];
  /** The cart's items: those with a note, a substitute choice or an estimate are listed. */
  items?: SessionSummary["cartItems"];
}) {
  const { user } = useAuth();
  const navigate = useNavigate();
  const order = useSessionOrder(sessionId);
  const checkout = useCheckout(sessionId);
  const cart = useSessionCart(sessionId).data?.cart;
  const [confirming, setConfirming] = useState(false);
  const [takeWhatIsLeft, setTakeWhatIsLeft] = useState(false);
  const [dropWaiting, setDropWaiting] = useState(false);
  // Who pays the shop: null while the creator pays it all.
  const [payerRows, setPayerRows] = useState<PayerRowInput[] | null>(null);

  if (order) {
    return (
      <div className="flex flex-col gap-2">
        <ButtonLink to={`/orders/${order._id}`} fullWidth>
          <PackageCheck aria-hidden="true" className="size-4" />
          View order {order.number}
        </ButtonLink>
        <p className="text-center text-xs text-slate-500" role="status">
          This cart was checked out.
        </p>
      </div>
    );
  }
  if (!session) return null;
  if (session.status !== "active") {
    return <p className="text-center text-sm text-slate-600">This session has ended.</p>;
  }
  const creator = session.invitedUsers.find((m) => m.role === "creator");
  // The creator, and the participants too where the session lets its members check out.
  if (!can(roleIn(session, user?._id), "session.checkout", openSettings(session))) {
    return (
      <p className="text-center text-sm text-slate-600">
        {creator?.name ?? "The creator"} checks out for the group. Mark yourself done in the cart
        when you are.
      </p>
    );
  }
  const { ready, waiting } = readiness(session);
  const totalCents = toCents(total);
  const candidates = creator
    ? payerCandidates({ userId: creator.userId, name: creator.name }, shares)
    : [];
  const split = payerRows ? readPayers(payerRows, totalCents) : null;
  const { leftOut, short } = stockProblems(cart?.products ?? []);
  const waitingLines = (cart?.products ?? []).filter((l) => l.pending);
  return (
    <>
      <Button
        fullWidth
        loading={checkout.isPending}
        disabled={empty}
        onClick={() => {
          setPayerRows(null);
          setTakeWhatIsLeft(false);
          setDropWaiting(false);
          setConfirming(true);
        }}
      >
        {!checkout.isPending && <CreditCard aria-hidden="true" className="size-4" />}
        {checkout.isPending ? "Checking out…" : CHECK_OUT_LABEL}
      </Button>
      <p className="text-center text-xs text-slate-500">
        {empty
          ? "Add something to the cart first."
          : "The cart becomes an order at today's prices and the session ends."}
      </p>
      <ConfirmDialog
        open={confirming}
        tone="primary"
        title="Check out this cart?"
        description={
          <span className="flex flex-col gap-2">
            <span>
              {ready.length > 0 ? `Ready: ${ready.join(", ")}.` : "Nobody has marked done yet."}
              {waiting.length > 0 && ` Not done yet: ${waiting.join(", ")}.`}
            </span>
            <span>
              The cart becomes an order at today's prices, the session ends, and everyone with a
              share gets an email saying what they owe{split ? "" : " you"}.
            </span>
            {leftOut.length > 0 && (
              <span>
                Left out, no longer available:{" "}
                {leftOut.map((l) => `${l.productId.name} (${l.quantity})`).join(", ")}.
              </span>
            )}
            {/* A line left out is not bought: nothing to tell the shop about it. */}
            <ShopperNotes
              items={items.filter((item) => cartLineOf(cart?.products, item)?.available !== false)}
            />
          </span>
        }
        confirmLabel={CHECK_OUT_LABEL}
        confirmDisabled={
          (split !== null && !split.ready) ||
          (short.length > 0 && !takeWhatIsLeft) ||
          (waitingLines.length > 0 && !dropWaiting)
        }
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          if (split && !split.ready) return;
          setConfirming(false);
          const overStock = short.length > 0 && takeWhatIsLeft ? "take_what_is_left" : undefined;
          const pending = waitingLines.length > 0 && dropWaiting ? "drop" : undefined;
          checkout.mutate(
            { payers: split?.payers, overStock, pending },
            {
              onSuccess: (body) => {
                toast.success(`Order ${body.order.number} placed.`);
                navigate(`/orders/${body.order._id}`);
              },
              onError: (error) => {
                toast.error(errorMessage(error, "We couldn't check out. Try again."));
              },
            },
          );
        }}
      >
        {short.length > 0 && (
          <ShortLines lines={short} take={takeWhatIsLeft} onTake={setTakeWhatIsLeft} />
        )}
        {waitingLines.length > 0 && (
          <WaitingLines lines={waitingLines} drop={dropWaiting} onDrop={setDropWaiting} />
        )}
        <CheckoutPayers
          candidates={candidates}
          totalCents={totalCents}
          rows={payerRows}
          onChange={setPayerRows}
        />
      </ConfirmDialog>
    </>
  );
}

/** The cart's lines checkout cannot take as they are: no longer available, or over the stock. */
export function stockProblems(lines: readonly CartLine[]) {
  return {
    leftOut: lines.filter((l) => !l.available),
    short: lines.filter((l) => l.available && l.stockShort > 0),
  };
}

/**
 * Lines waiting for approval: checkout waits for them (approve or decline them first), or the
 * creator checks out without them, and they are dropped. The confirm says which.
 */
function WaitingLines({
  lines,
  drop,
  onDrop,
}: {
  lines: readonly CartLine[];
  drop: boolean;
  onDrop: (drop: boolean) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-2 rounded-xl bg-accent-50 p-3 text-sm text-accent-800">
      <legend className="sr-only">Waiting for approval</legend>
      <p>
        Waiting for approval:{" "}
        {lines.map((l) => `${l.productId.name} (${l.quantity}, ${l.addedBy.name})`).join(", ")}.{" "}
        {drop
          ? "They are dropped: the order is checked out without them."
          : "Checkout waits for them: approve or decline them first, or check out without them."}
      </p>
      <label className="flex items-center gap-2 font-medium">
        <input
          type="checkbox"
          className="size-4"
          checked={drop}
          onChange={(event) => onDrop(event.target.checked)}
        />
        Check out without them (drop them)
      </label>
    </fieldset>
  );
}

/** Lines over the stock: the creator takes what is left, or checks out later. */
function ShortLines({
  lines,
  take,
  onTake,
}: {
  lines: readonly CartLine[];
  take: boolean;
  onTake: (take: boolean) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-2 rounded-xl bg-danger-50 p-3 text-sm text-danger-800">
      <legend className="sr-only">Not enough in stock</legend>
      <p>
        Not enough in stock:{" "}
        {lines
          .map((l) => `${l.productId.name} (${l.quantity - l.stockShort} left of ${l.quantity})`)
          .join(", ")}
        .
      </p>
      <label className="flex items-center gap-2 font-medium">
        <input
          type="checkbox"
          className="size-4"
          checked={take}
          onChange={(event) => onTake(event.target.checked)}
        />
        Take what is left
      </label>
    </fieldset>
  );
}
