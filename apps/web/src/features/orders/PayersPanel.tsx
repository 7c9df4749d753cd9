import { useState, type FormEvent } from "react";
import { CreditCard } from "lucide-react";
import { toCents, type Order, type OrderPart } from "@cartner/contract";
import { Button, FormAlert, Panel, TextField } from "../../components/ui/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { formatMoney } from "../../lib/format.ts";
import { useSetPayers } from "../../api/orders.ts";

/**
 * Who paid the shop, and what each share owes each payer: the part, and what of it is still open
 * or settled by the rule balances use (the server's `parts`). The payee may say several people paid
 * (two cards) until a share is paid or settled: amounts adding up to the total, the form showing
 * what is left to assign.
 */
export function PayersPanel({ order, isPayee }: { order: Order; isPayee: boolean }) {
  const [editing, setEditing] = useState(false);
  const canEdit = isPayee && !payersLocked(order);
  const owed = order.parts;
  const nameOf = (id: string) =>
    order.split.find((s) => s.userId === id)?.name ??
    order.payers.find((p) => p.user._id === id)?.user.name ??
    "";
  return (
    <Panel title="Who paid the shop" icon={CreditCard}>
      {editing ? (
        <PayersForm order={order} onDone={() => setEditing(false)} />
      ) : (
        <div className="flex flex-col gap-3">
          <ul aria-label="Payers" className="flex flex-col gap-1 text-sm text-slate-700">
            {order.payers.map((p) => (
              <li key={p.user._id} className="flex justify-between gap-3">
                <span className="font-semibold break-words text-ink">{p.user.name}</span>
                <span className="tabular-nums">{formatMoney(p.amount)}</span>
              </li>
            ))}
          </ul>
          {order.payers.length > 1 && owed.length > 0 && (
            <ul aria-label="Who owes which payer" className="flex flex-col gap-1 text-sm">
              {owed.map((o) => (
                <li key={`${o.debtor}-${o.payer}`} className="text-slate-600">
                  {partSentence(o, nameOf)}
                </li>
              ))}
            </ul>
          )}
          {canEdit && (
            <Button size="sm" variant="secondary" onClick={() => setEditing(true)}>
              Several people paid
            </Button>
          )}
        </div>
      )}
    </Panel>
  );
}

/**
 * Once a share is paid or settled (not by paying the shop), or an adjustment reopened a share
 * after a payment (part of it paid), the payers no longer change: the server's rule.
 */
export function payersLocked(order: Order): boolean {
  return order.split.some(
    (s) =>
      s.status === "paid" ||
      (s.status === "confirmed" && s.settledAs !== null) ||
      (s.status === "unpaid" && s.paid > 0),
  );
}

/**
 * One part in words: "Ben owes Ann $12.40", "Ben owes Ann $5.00 of $12.40", "Ben's part for Ann,
 * $12.40, is settled", or a credit (paid beyond the part): "Ben paid Ann $12.90 for a part of
 * $12.40: Ann owes Ben $0.50 back".
 */
export function partSentence(part: OrderPart, nameOf: (id: string) => string): string {
  const debtor = nameOf(part.debtor);
  const payer = nameOf(part.payer);
  const whole = formatMoney(part.amount);
  if (part.credit > 0) {
    const paid = formatMoney((toCents(part.amount) + toCents(part.credit)) / 100);
    return `${debtor} paid ${payer} ${paid} for a part of ${whole}: ${payer} owes ${debtor} ${formatMoney(part.credit)} back`;
  }
  if (part.open === 0) return `${debtor}'s part for ${payer}, ${whole}, is settled`;
  if (part.open === part.amount) return `${debtor} owes ${payer} ${whole}`;
  return `${debtor} owes ${payer} ${formatMoney(part.open)} of ${whole}`;
}

/** The payee and each member with a share, each with an amount field ("" = did not pay). */
function PayersForm({ order, onDone }: { order: Order; onDone: () => void }) {
  const save = useSetPayers(order._id);
  const people = [
    { _id: order.payee._id, name: order.payee.name },
    ...order.split
      .filter((s) => s.userId !== order.payee._id)
      .map((s) => ({ _id: s.userId, name: s.name })),
  ];
  const [amounts, setAmounts] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      people.map((p) => {
        const paid = order.payers.find((x) => x.user._id === p._id);
        return [p._id, paid ? paid.amount.toFixed(2) : ""];
      }),
    ),
  );
  const parsed = people.map((p) => ({ userId: p._id, text: amounts[p._id]?.trim() ?? "" }));
  const invalid = parsed.filter((p) => p.text !== "" && !/^\d+(\.\d{1,2})?$/.test(p.text));
  const payers = parsed
    .filter((p) => p.text !== "" && !invalid.includes(p))
    .map((p) => ({ userId: p.userId, amount: Number(p.text) }))
    .filter((p) => p.amount > 0);
  const left = toCents(order.total) - payers.reduce((a, p) => a + toCents(p.amount), 0);
  const ready = invalid.length === 0 && payers.length > 0 && left === 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready) return;
    save.mutate({ payers }, { onSuccess: onDone });
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-label="Who paid the shop">
      <p className="text-sm text-slate-600">
        Enter what each person paid the shop; leave empty for those who did not. The amounts must
        add up to {formatMoney(order.total)}.
      </p>
      {people.map((p) => (
        <TextField
          key={p._id}
          label={`${p.name} paid`}
          inputMode="decimal"
          autoComplete="off"
          value={amounts[p._id] ?? ""}
          error={invalid.some((x) => x.userId === p._id) ? "An amount like 12.40" : undefined}
          onChange={(e) => setAmounts({ ...amounts, [p._id]: e.target.value })}
        />
      ))}
      <p className="text-sm font-semibold text-ink" aria-live="polite" data-testid="payers-left">
        {left === 0
          ? "The amounts add up to the total."
          : left > 0
            ? `Left to assign: ${formatMoney(left / 100)}`
            : `Over the total by ${formatMoney(-left / 100)}`}
      </p>
      <FormAlert message={save.error ? errorMessage(save.error, "That did not work.") : null} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={!ready} loading={save.isPending}>
          Save payers
        </Button>
        <Button type="button" size="sm" variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
