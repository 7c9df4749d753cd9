/**
 * The frame of one person's card in the order page's Shares panel: their name (with who they are
 * on the order, "(you)", "· payee"), an amount read out with what it is, a row of badges, and what
 * the card says and offers below. A share (ShareCard) and a payer without one (PayerOwesCard)
 * look alike.
 */
import type { ReactNode } from "react";

export function PersonCard({
  testId,
  name,
  note,
  amountLabel,
  amount,
  badges,
  children,
}: {
  testId: string;
  name: string;
  /** After the name, in a lighter weight: " (you)", " · payee". */
  note?: string;
  /** Read out before the amount only ("Share", "Owes you"). */
  amountLabel: string;
  amount: string;
  badges: ReactNode;
  children?: ReactNode;
}) {
  return (
    <li
      data-testid={testId}
      className="flex flex-col gap-3 rounded-2xl bg-slate-50 p-4 ring-1 ring-slate-200 ring-inset"
    >
      <div className="flex items-baseline justify-between gap-3">
        <p className="min-w-0 font-semibold break-words text-ink">
          {name}
          {note && <span className="font-normal text-slate-500">{note}</span>}
        </p>
        <p className="font-display text-lg font-bold text-ink tabular-nums">
          <span className="sr-only">{amountLabel} </span>
          {amount}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">{badges}</div>
      {children}
    </li>
  );
}
