import { useState } from "react";
import { useNavigate } from "../../lib/router.tsx";
import { toast } from "../../lib/toast.ts";
import { CreditCard, PackageCheck } from "lucide-react";
import { carriesShare, toCents, type Session } from "@cartner/contract";
import { Button, ButtonLink, ConfirmDialog } from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { useAuth } from "../../lib/auth-store.ts";
import { roleIn } from "../../shared/roles.ts";
import { useCheckout, useSessionOrder } from "../../api/orders.ts";
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
}: {
  session: Session | undefined;
  sessionId: string;
  empty: boolean;
  /** The cart's total and shares as the server computed them (the summary's). */
  total: number;
  shares: readonly { userId: string; name: string; total: number }[];
}) {
  const { user } = useAuth();
  const navigate = useNavigate();
  const order = useSessionOrder(sessionId);
  const checkout = useCheckout(sessionId);
  const [confirming, setConfirming] = useState(false);
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
  if (roleIn(session, user?._id) !== "creator") {
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
  return (
    <>
      <Button
        fullWidth
        loading={checkout.isPending}
        disabled={empty}
        onClick={() => {
          setPayerRows(null);
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
          </span>
        }
        confirmLabel={CHECK_OUT_LABEL}
        confirmDisabled={split !== null && !split.ready}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          if (split && !split.ready) return;
          setConfirming(false);
          checkout.mutate(split?.payers, {
            onSuccess: (body) => {
              toast.success(`Order ${body.order.number} placed.`);
              navigate(`/orders/${body.order._id}`);
            },
            onError: (error) => {
              toast.error(errorMessage(error, "We couldn't check out. Try again."));
            },
          });
        }}
      >
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
