import { useId } from "react";
import { Plus, X } from "lucide-react";
import { Button, SelectField, TextField } from "../../components/ui/index.ts";
import { formatMoney } from "../../lib/format.ts";
import {
  amountError,
  firstSplit,
  nextRow,
  readPayers,
  type PayerCandidate,
  type PayerRowInput,
} from "./checkout-payers.ts";

/**
 * The checkout dialog's "who pays the shop": by default the payee pays it all (`rows` null);
 * "Split the payment" lists payers with amounts, showing what is left to assign. The rows are
 * exactly what the checkout sends.
 */
export function CheckoutPayers({
  candidates,
  totalCents,
  rows,
  onChange,
}: {
  /** The payee first, then the members with a share. */
  candidates: PayerCandidate[];
  totalCents: number;
  rows: PayerRowInput[] | null;
  onChange: (rows: PayerRowInput[] | null) => void;
}) {
  const listId = useId();
  const payee = candidates[0];
  if (!payee) return null;
  const total = formatMoney(totalCents / 100);
  // Nobody else has a share: there is no one to split with.
  if (candidates.length < 2) return null;
  const nameOf = (userId: string) => candidates.find((c) => c.userId === userId)?.name ?? "";

  if (rows === null) {
    return (
      <section aria-label="Who pays the shop" className="flex flex-col gap-2 text-sm">
        <p className="break-words text-slate-700">
          <span className="font-semibold text-ink">{payee.name}</span> pays the shop all of {total}.
        </p>
        <Button
          type="button"
          size="sm"
          variant="secondary"
          className="self-start"
          data-split-toggle={listId}
          aria-expanded={false}
          onClick={() => {
            onChange(firstSplit(candidates, totalCents));
            focusSoon(`[id="${listId}"] select`);
          }}
        >
          Split the payment
        </Button>
      </section>
    );
  }

  const { leftCents } = readPayers(rows, totalCents);
  const next = nextRow(rows, candidates, totalCents);
  const set = (index: number, row: PayerRowInput) =>
    onChange(rows.map((r, i) => (i === index ? row : r)));

  return (
    <section aria-label="Who pays the shop" className="flex flex-col gap-3 text-sm">
      <p className="text-slate-700">
        Who paid the shop, and how much: the amounts must add up to {total}. Each share is then owed
        to the payers in proportion.
      </p>
      <ul id={listId} aria-label="Payers" className="flex flex-col gap-3">
        {rows.map((row, index) => (
          <li
            // By position: choosing another payer keeps the row (and the focus) in place.
            key={index}
            className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-2 rounded-xl p-3 ring-1 ring-slate-200 ring-inset"
          >
            <SelectField
              label={`Payer ${index + 1}`}
              className="col-span-2"
              value={row.userId}
              onChange={(e) => set(index, { ...row, userId: e.target.value })}
            >
              {candidates
                .filter((c) => c.userId === row.userId || !rows.some((r) => r.userId === c.userId))
                .map((c) => (
                  <option key={c.userId} value={c.userId}>
                    {c.name}
                  </option>
                ))}
            </SelectField>
            <TextField
              label={`Amount ${nameOf(row.userId)} paid`}
              inputMode="decimal"
              autoComplete="off"
              value={row.amount}
              error={amountError(row.amount)}
              onChange={(e) => set(index, { ...row, amount: e.target.value })}
            />
            <Button
              type="button"
              size="icon"
              variant="ghost"
              className="mt-7"
              aria-label={`Remove ${nameOf(row.userId)}`}
              disabled={rows.length === 1}
              onClick={() => onChange(rows.filter((_, i) => i !== index))}
            >
              <X aria-hidden="true" className="size-4" />
            </Button>
          </li>
        ))}
      </ul>
      <p className="font-semibold text-ink" aria-live="polite" data-testid="checkout-payers-left">
        {leftCents === 0
          ? "The amounts add up to the total."
          : leftCents > 0
            ? `Left to assign: ${formatMoney(leftCents / 100)}`
            : `Over the total by ${formatMoney(-leftCents / 100)}`}
      </p>
      <div className="flex flex-wrap gap-2">
        {next && (
          <Button
            type="button"
            size="sm"
            variant="secondary"
            onClick={() => onChange([...rows, next])}
          >
            <Plus aria-hidden="true" className="size-4" />
            Add a payer
          </Button>
        )}
        <Button
          type="button"
          size="sm"
          variant="ghost"
          // A long name wraps instead of overflowing a phone's dialog.
          className="h-auto min-h-9 py-1.5 text-left whitespace-normal"
          aria-expanded={true}
          aria-controls={listId}
          onClick={() => {
            onChange(null);
            focusSoon(`[data-split-toggle="${listId}"]`);
          }}
        >
          {payee.name} pays it all
        </Button>
      </div>
    </section>
  );
}

/** Moves the focus once React has drawn the other state of the section (it swaps its content). */
function focusSoon(selector: string) {
  requestAnimationFrame(() => document.querySelector<HTMLElement>(selector)?.focus());
}
