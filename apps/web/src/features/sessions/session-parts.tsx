import type { ReactNode } from "react";
import { Check, X } from "lucide-react";
import type { Member, Session } from "@cartner/contract";
import { Avatar, Badge, Button } from "../../components/ui/index.ts";
import { cn } from "../../lib/cn.ts";
import { formatMoney } from "../../lib/format.ts";
import { avatarStack, cartTotalOf, savingsOf } from "./session-model.ts";

export const NO_BUDGET = "No budget";

/** Up to 3 overlapping avatars, then '+N'. */
export function AvatarStack({ members, className }: { members: Member[]; className?: string }) {
  const { shown, more } = avatarStack(members);
  const names = members.map((member) => member.name).join(", ");
  return (
    <div className={cn("flex items-center", className)}>
      <ul aria-label={`Members: ${names}`} className="flex -space-x-2.5">
        {shown.map((member) => (
          <li key={member.userId}>
            <Avatar
              src={member.avatar}
              seed={member.userId}
              name={member.name}
              alt={member.name}
              className="size-9"
            />
          </li>
        ))}
        {more > 0 && (
          <li className="relative flex size-9 items-center justify-center rounded-full bg-accent-100 text-xs font-bold text-accent-800 ring-2 ring-white">
            <span aria-hidden="true">+{more}</span>
            <span className="sr-only">and {more} more</span>
          </li>
        )}
      </ul>
    </div>
  );
}

export function StatusBadge({ status }: { status: Session["status"] }) {
  return status === "active" ? (
    <Badge tone="success">
      <span aria-hidden="true" className="size-1.5 rounded-full bg-success-600" />
      Active
    </Badge>
  ) : (
    <Badge tone="neutral">Ended</Badge>
  );
}

/** The savings figure: green when under budget, red when over, 'No budget' without one. */
export function SavingsValue({ session }: { session: Pick<Session, "budget" | "cart"> }) {
  const savings = savingsOf(session);
  if (savings === null) return <span className="text-slate-500">{NO_BUDGET}</span>;
  if (savings < 0) {
    return (
      <span className="text-danger-700">
        {formatMoney(savings)}
        <span className="sr-only"> (over budget)</span>
      </span>
    );
  }
  return <span className="text-success-700">{formatMoney(savings)}</span>;
}

/**
 * Budget, Cart Total and Savings as a definition list: compact rows on a card ("rows"), big
 * tiles in the lobby ("tiles", which fall back to rows on narrow screens).
 */
export function MoneyStats({
  session,
  layout = "rows",
  className,
}: {
  session: Pick<Session, "budget" | "cart">;
  layout?: "rows" | "tiles";
  className?: string;
}) {
  const items: Array<{ label: string; value: ReactNode }> = [
    {
      label: "Budget",
      value:
        session.budget === null || session.budget === undefined ? (
          <span className="text-slate-500">{NO_BUDGET}</span>
        ) : (
          formatMoney(session.budget)
        ),
    },
    { label: "Cart Total", value: formatMoney(cartTotalOf(session)) },
    { label: "Savings", value: <SavingsValue session={session} /> },
  ];
  if (layout === "rows") {
    return (
      <dl
        className={cn(
          "divide-y divide-slate-200/70 rounded-xl bg-slate-50 text-sm ring-1 ring-slate-200/70 ring-inset",
          className,
        )}
      >
        {items.map((item) => (
          <div key={item.label} className="flex items-baseline justify-between gap-3 px-3 py-2">
            <dt className="text-slate-500">{item.label}</dt>
            <dd className="text-right font-semibold break-words text-ink tabular-nums">
              {item.value}
            </dd>
          </div>
        ))}
      </dl>
    );
  }
  return (
    <dl className={cn("grid gap-2 sm:grid-cols-3", className)}>
      {items.map((item) => (
        <div
          key={item.label}
          className="flex min-w-0 items-baseline justify-between gap-3 rounded-xl bg-slate-50 px-4 py-3 ring-1 ring-slate-200/70 ring-inset sm:flex-col sm:justify-start sm:gap-0.5 sm:p-4"
        >
          <dt className="text-sm font-medium text-slate-500 sm:text-xs">{item.label}</dt>
          <dd className="font-display text-lg font-semibold break-words text-ink tabular-nums sm:text-2xl">
            {item.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export type Answer = "accept" | "reject";

/**
 * Accept and Reject for an invite or a join request. `busy` is the answer on its way: that button
 * spins and both wait. `subject` names the row for screen readers ('Accept Ann').
 */
export function AnswerButtons({
  subject,
  busy,
  onAnswer,
  grow = false,
}: {
  subject: string;
  busy: Answer | null;
  onAnswer: (how: Answer) => void;
  /** Let the buttons share the row's width (narrow panels). */
  grow?: boolean;
}) {
  return (
    <div className="flex shrink-0 gap-2">
      <Button
        size="sm"
        className={cn(grow && "flex-1")}
        loading={busy === "accept"}
        disabled={busy !== null}
        onClick={() => onAnswer("accept")}
        aria-label={`Accept ${subject}`}
      >
        {busy !== "accept" && <Check aria-hidden="true" className="size-4" />}
        Accept
      </Button>
      <Button
        size="sm"
        variant="secondary"
        className={cn(grow && "flex-1")}
        loading={busy === "reject"}
        disabled={busy !== null}
        onClick={() => onAnswer("reject")}
        aria-label={`Reject ${subject}`}
      >
        {busy !== "reject" && <X aria-hidden="true" className="size-4" />}
        Reject
      </Button>
    </div>
  );
}
