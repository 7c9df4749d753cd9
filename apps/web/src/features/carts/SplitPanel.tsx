import { useId, useState, type FormEvent } from "react";
import { Check, PiggyBank } from "lucide-react";
import { can, type Cart, type Role } from "@cartner/contract";
import { useRefreshCarts } from "../../api/carts.ts";
import { useSaveBudget, useSetReady } from "../../api/members.ts";
import { Badge, Button, Input, NativeSelect } from "../../components/ui/index.ts";
import { cn } from "../../lib/cn.ts";
import { formatMoney } from "../../lib/format.ts";
import { failureToast, successToast } from "../../shared/cart-toasts.tsx";
import { useSessionDetail } from "../../api/sessions.ts";
import {
  SHARES_INCLUDE_FEES_AND_TAX,
  sharesOf,
  unsentNote,
  withoutUnsentNote,
} from "./cart-model.ts";

/** Shown to a member whose "I'm done" mark cleared because their share's total changed. */
export const SHARE_CHANGED_MESSAGE =
  "Your share changed since you marked yourself done. Check it, then mark yourself done again.";

interface SplitPanelProps {
  cart: Cart;
  userId: string | null | undefined;
  role: Role | null;
  active: boolean;
  /** The session's split policy, when known (the lobby's session answer carries it). */
  policyText?: string | undefined;
  /** The user's changes drawn into the cart that the server has not confirmed yet. */
  unsent?: number;
}

/**
 * Who pays what, live: every paying member's running total from the server's split, against their
 * own budget, with their "I'm done" mark. While the user's own changes are on their way (or
 * queued offline) the cart above is drawn with them, so the shares are worked out the same way
 * from that cart with the session's policy (the contract's split function, as the server does),
 * and both say so. The signed-in member sets their budget and marks themselves done here; a mark
 * clears when the member's share total changes (the server says so with `shareChanged`).
 */
export function SplitPanel({
  cart,
  userId,
  role,
  active,
  policyText,
  unsent = 0,
}: SplitPanelProps) {
  const titleId = useId();
  const captionId = useId();
  const sessionId = cart.sessionId._id;
  const members = cart.sessionId.invitedUsers;
  const me = members.find((m) => m.userId === userId);
  const policy = useSessionDetail(sessionId).data?.splitPolicy;
  const shares = unsent > 0 && policy ? sharesOf(cart, policy) : cart.split;
  const refresh = useRefreshCarts();

  const ready = useSetReady(sessionId, {
    onSuccess: (_data, value) => {
      successToast(value ? "Marked as done." : "Marked as still shopping.");
      return refresh();
    },
    onError: (error) => failureToast("Could not change your mark", error),
  });

  return (
    <section
      aria-labelledby={titleId}
      className="flex flex-col gap-3 rounded-2xl bg-slate-50 p-4"
      data-testid="split-panel"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={titleId} className="font-display text-base font-bold text-ink">
          Who pays what
        </h3>
        {active && me && can(role, "member.ready") && (
          <Button
            size="sm"
            variant={me.ready ? "secondary" : "primary"}
            aria-pressed={me.ready}
            loading={ready.isPending}
            onClick={() => ready.mutate(!me.ready)}
          >
            {!ready.isPending && <Check aria-hidden="true" className="size-4" />}
            {me.ready ? "Done ✓" : "I'm done"}
          </Button>
        )}
      </div>
      {active && me?.shareChanged && (
        <p role="status" className="text-sm font-medium text-accent-800">
          {SHARE_CHANGED_MESSAGE}
        </p>
      )}
      {policyText && <p className="text-sm text-slate-600">{policyText}</p>}
      <p id={captionId} className="text-xs text-slate-500">
        {SHARES_INCLUDE_FEES_AND_TAX}
        {unsent > 0 && <> {policy ? unsentNote(unsent) : withoutUnsentNote(unsent)}</>}
      </p>
      <ul aria-label="Running totals" aria-describedby={captionId} className="flex flex-col gap-3">
        {shares.map((share) => {
          const member = members.find((m) => m.userId === share.userId);
          const ratio = share.budget ? Math.min(1, share.total / share.budget) : 0;
          return (
            <li key={share.userId} className="flex flex-col gap-1" data-testid="running-total">
              <div className="flex items-baseline justify-between gap-2">
                {/* On a phone the badges wrap below the name; a long name is cut, never "(you)". */}
                <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
                  <span className="flex max-w-full min-w-0 font-medium text-ink">
                    <span className="truncate">{share.name}</span>
                    {share.userId === userId && (
                      <span className="shrink-0 whitespace-pre text-slate-500"> (you)</span>
                    )}
                  </span>
                  {member?.ready && <Badge tone="success">Done</Badge>}
                  {member?.shareChanged && <Badge tone="accent">Share changed</Badge>}
                </span>
                <span
                  className={cn(
                    "shrink-0 font-semibold whitespace-nowrap tabular-nums",
                    share.overBudget ? "text-danger-700" : "text-ink",
                  )}
                >
                  {formatMoney(share.total)}
                </span>
              </div>
              {share.budget !== null && (
                <div className="flex items-center gap-2 text-xs text-slate-500">
                  <div
                    role="progressbar"
                    aria-label={`${share.name}'s share of their budget`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={Math.round(ratio * 100)}
                    className="h-2 flex-1 overflow-hidden rounded-full bg-slate-200"
                  >
                    <div
                      className={cn(
                        "h-full rounded-full",
                        share.overBudget ? "bg-danger-600" : "bg-primary-600",
                      )}
                      style={{ width: `${ratio * 100}%` }}
                    />
                  </div>
                  <span className={share.overBudget ? "font-semibold text-danger-700" : ""}>
                    {share.overBudget ? "Over " : "of "}
                    {formatMoney(share.budget)}
                  </span>
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {active && me && me.role !== "pending" && (
        <BudgetForm
          sessionId={sessionId}
          me={me.userId}
          // The creator sets anyone's cap; everyone else their own.
          members={
            can(role, "session.manageMembers") ? members.filter((m) => m.role !== "pending") : [me]
          }
          onSaved={refresh}
        />
      )}
    </section>
  );
}

function BudgetForm({
  sessionId,
  me,
  members,
  onSaved,
}: {
  sessionId: string;
  me: string;
  members: Cart["sessionId"]["invitedUsers"];
  onSaved: () => Promise<unknown>;
}) {
  const inputId = useId();
  const whoId = useId();
  const [userId, setUserId] = useState(me);
  const budgetOf = (id: string) => members.find((m) => m.userId === id)?.budget ?? null;
  const [draft, setDraft] = useState(() => String(budgetOf(me) ?? ""));
  const [error, setError] = useState<string | null>(null);
  const save = useSaveBudget(sessionId, userId, {
    onSuccess: (_data, value) => {
      successToast(value === null ? "Budget removed." : `Budget set to ${formatMoney(value)}.`);
      return onSaved();
    },
    onError: (e) => failureToast("Could not save your budget", e),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = draft.trim();
    const value = text === "" ? null : Number(text);
    if (value !== null && (!Number.isFinite(value) || value < 0 || value > 1_000_000)) {
      setError("Enter an amount from 0 to 1,000,000, or leave it empty for no budget.");
      return;
    }
    setError(null);
    save.mutate(value === null ? null : Math.round(value * 100) / 100);
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-1" noValidate>
      {members.length > 1 && (
        <>
          <label htmlFor={whoId} className="text-sm font-medium text-ink">
            Budget for
          </label>
          <NativeSelect
            id={whoId}
            value={userId}
            onChange={(event) => {
              setUserId(event.target.value);
              setDraft(String(budgetOf(event.target.value) ?? ""));
            }}
          >
            {members.map((m) => (
              <option key={m.userId} value={m.userId}>
                {m.userId === me ? `${m.name} (you)` : m.name}
              </option>
            ))}
          </NativeSelect>
        </>
      )}
      <label htmlFor={inputId} className="flex items-center gap-1 text-sm font-medium text-ink">
        <PiggyBank aria-hidden="true" className="size-4 text-primary-700" />
        {userId === me ? "My budget" : "Their budget"}
      </label>
      <div className="flex gap-2">
        <Input
          id={inputId}
          inputMode="decimal"
          placeholder="No budget"
          value={draft}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error` : undefined}
          onChange={(e) => setDraft(e.target.value)}
          className="min-w-0 flex-1"
        />
        <Button type="submit" size="sm" variant="secondary" loading={save.isPending}>
          Save
        </Button>
      </div>
      {error && (
        <p id={`${inputId}-error`} className="text-sm text-danger-700">
          {error}
        </p>
      )}
    </form>
  );
}
