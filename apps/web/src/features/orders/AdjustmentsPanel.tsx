import { useState, type FormEvent } from "react";
import { MessageSquareWarning, PencilLine } from "lucide-react";
import {
  describeAdjustment,
  type AdjustmentBody,
  type AdjustmentKind,
  type Order,
} from "@cartner/contract";
import { Button, FormAlert, Panel, SelectField, TextField } from "../../components/ui/index.ts";
import { ApiError, errorMessage } from "../../lib/api.ts";
import { formatDateTime, formatMoney } from "../../lib/format.ts";
import { useAdjustmentAction } from "../../api/orders.ts";
import { ADJUSTMENT_CHOICES, parseAmount } from "./order-model.ts";

/**
 * The changes after checkout: every adjustment in words, with its note and disputes; the payee
 * records new ones, a member with a share disputes one. Everyone with a part in the order sees it.
 */
export function AdjustmentsPanel({
  order,
  isPayee,
  hasShare,
}: {
  order: Order;
  isPayee: boolean;
  hasShare: boolean;
}) {
  if (!isPayee && order.adjustments.length === 0) return null;
  const disputed = order.adjustments.filter((a) => a.disputes.length > 0).length;
  return (
    <Panel title="Changes after checkout" icon={PencilLine}>
      {isPayee && disputed > 0 && (
        <p
          className="mb-3 flex items-center gap-2 font-semibold text-accent-800"
          aria-live="polite"
        >
          <MessageSquareWarning aria-hidden="true" className="size-4 shrink-0" />
          {disputed === 1 ? "1 change is disputed" : `${disputed} changes are disputed`}: read why
          below, and record another change if they are right.
        </p>
      )}
      {order.adjustments.length === 0 ? (
        <p className="text-sm text-slate-600">
          Nothing has changed since checkout. If the shop did not deliver something, substituted it,
          or charged a different price, record it here: the shares re-split.
        </p>
      ) : (
        <ol aria-label="Changes after checkout" className="flex flex-col gap-3">
          {order.adjustments.map((a) => (
            <li
              key={a._id}
              className="rounded-2xl bg-slate-50 p-4 ring-1 ring-slate-200 ring-inset"
            >
              <p className="font-semibold break-words text-ink">
                {describeAdjustment(a, order.lines, formatMoney)}
              </p>
              <p className="text-xs text-slate-500">
                {a.by.name} · {formatDateTime(a.at)}
              </p>
              {a.note && <p className="mt-1 text-sm break-words text-slate-700">{a.note}</p>}
              {a.disputes.length > 0 && (
                <ul aria-label="Disputes" className="mt-2 flex flex-col gap-1">
                  {a.disputes.map((d, i) => (
                    <li key={i} className="flex gap-2 text-sm text-accent-800">
                      <MessageSquareWarning aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
                      <span className="break-words">
                        <span className="font-semibold">{d.by.name} disputes this:</span>{" "}
                        {d.comment}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
              {hasShare && !isPayee && <DisputeForm orderId={order._id} adjId={a._id} />}
            </li>
          ))}
        </ol>
      )}
      {isPayee && <AdjustmentForm order={order} />}
    </Panel>
  );
}

function DisputeForm({ orderId, adjId }: { orderId: string; adjId: string }) {
  const action = useAdjustmentAction(orderId);
  const [open, setOpen] = useState(false);
  const [comment, setComment] = useState("");
  const [error, setError] = useState<string | undefined>();
  if (!open) {
    return (
      <Button size="sm" variant="secondary" className="mt-2" onClick={() => setOpen(true)}>
        Dispute
      </Button>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (comment.trim() === "") return setError("Say what is wrong with this change.");
    setError(undefined);
    action.mutate(
      { kind: "dispute", adjId, comment: comment.trim() },
      {
        onSuccess: () => {
          setOpen(false);
          setComment("");
        },
        onError: (e) => setError(errorMessage(e, "That did not work. Try again.")),
      },
    );
  };
  return (
    <form onSubmit={submit} className="mt-2 flex flex-col gap-2" noValidate>
      <TextField
        label="What is wrong with this change?"
        value={comment}
        maxLength={500}
        error={error}
        onChange={(e) => setComment(e.target.value)}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" loading={action.isPending}>
          Send dispute
        </Button>
        <Button type="button" size="sm" variant="secondary" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

interface Draft {
  kind: AdjustmentKind;
  lineIndex: string;
  name: string;
  unitPrice: string;
  quantity: string;
  amount: string;
  direction: "discount" | "fee";
  note: string;
}

const EMPTY: Draft = {
  kind: "missing",
  lineIndex: "0",
  name: "",
  unitPrice: "",
  quantity: "",
  amount: "",
  direction: "discount",
  note: "",
};

/** A new draft: pricing the first line still at an estimate, when there is one. */
function draftFor(order: Order): Draft {
  const estimated = order.lines.findIndex((l) => l.estimated);
  return estimated < 0 ? EMPTY : { ...EMPTY, kind: "price", lineIndex: String(estimated) };
}

/** The body the draft sends, or the fields it is missing (checked here before the server). */
function bodyOf(d: Draft): { body: AdjustmentBody } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const lineIndex = Number(d.lineIndex);
  const note = d.note.trim() ? { note: d.note.trim() } : {};
  const price = () => {
    const n = parseAmount(d.unitPrice);
    if (n === null || n < 0) errors.unitPrice = "Enter the unit price, like 2.49";
    return n ?? 0;
  };
  const amount = () => {
    const n = parseAmount(d.amount);
    if (n === null || n <= 0) errors.amount = "Enter an amount more than 0, like 1.50";
    return n ?? 0;
  };
  const quantity = (optional: boolean) => {
    if (optional && d.quantity.trim() === "") return undefined;
    const n = Number(d.quantity);
    if (d.quantity.trim() === "" || !Number.isInteger(n) || n < 0) {
      errors.quantity = "Enter a whole number, 0 or more";
    }
    return n;
  };
  let body: AdjustmentBody;
  switch (d.kind) {
    case "missing":
      body = { kind: "missing", lineIndex, ...note };
      break;
    case "substituted": {
      if (!d.name.trim()) errors.name = "Enter what came instead";
      const q = quantity(true);
      body = {
        kind: "substituted",
        lineIndex,
        name: d.name.trim(),
        unitPrice: price(),
        ...(q === undefined ? {} : { quantity: q }),
        ...note,
      };
      break;
    }
    case "quantity":
      body = { kind: "quantity", lineIndex, quantity: quantity(false)!, ...note };
      break;
    case "price":
      body = { kind: "price", lineIndex, unitPrice: price(), ...note };
      break;
    case "refund":
      body = { kind: "refund", lineIndex, amount: amount(), ...note };
      break;
    case "order_fee": {
      const a = amount();
      body = {
        kind: "order_fee",
        amount: d.direction === "discount" ? -a : a,
        ...(d.name.trim() ? { name: d.name.trim() } : {}),
        ...note,
      };
      break;
    }
  }
  return Object.keys(errors).length > 0 ? { errors } : { body };
}

function AdjustmentForm({ order }: { order: Order }) {
  const action = useAdjustmentAction(order._id);
  const [draft, setDraft] = useState<Draft>(() => draftFor(order));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const onLine = draft.kind !== "order_fee";

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const made = bodyOf(draft);
    setFailure(null);
    if ("errors" in made) return setErrors(made.errors);
    setErrors({});
    action.mutate(
      { kind: "adjust", body: made.body },
      {
        onSuccess: () => setDraft({ ...EMPTY, kind: draft.kind }),
        onError: (e) => {
          if (e instanceof ApiError && e.fields) setErrors(e.fields);
          setFailure(errorMessage(e, "That did not work. Try again."));
        },
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Record a change"
      className="mt-4 flex flex-col gap-3 border-t border-slate-200 pt-4"
    >
      <h3 className="font-display font-bold text-ink">Record a change</h3>
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label="What changed"
          value={draft.kind}
          error={errors.kind}
          onChange={(e) => set("kind", e.target.value as AdjustmentKind)}
        >
          {ADJUSTMENT_CHOICES.map((c) => (
            <option key={c.kind} value={c.kind}>
              {c.label}
            </option>
          ))}
        </SelectField>
        {onLine && (
          <SelectField
            label="Line"
            value={draft.lineIndex}
            error={errors.lineIndex}
            onChange={(e) => set("lineIndex", e.target.value)}
          >
            {order.lines.map((l, i) => (
              <option key={i} value={String(i)}>
                {l.name} ({l.addedBy.name}){l.estimated ? " · estimated" : ""}
              </option>
            ))}
          </SelectField>
        )}
        {draft.kind === "order_fee" && (
          <SelectField
            label="Kind"
            value={draft.direction}
            onChange={(e) => set("direction", e.target.value as Draft["direction"])}
          >
            <option value="discount">Discount (lowers the total)</option>
            <option value="fee">Extra fee (raises the total)</option>
          </SelectField>
        )}
        {(draft.kind === "substituted" || draft.kind === "order_fee") && (
          <TextField
            label={draft.kind === "substituted" ? "What came instead" : "Label"}
            optional={draft.kind === "order_fee"}
            value={draft.name}
            maxLength={120}
            error={errors.name}
            onChange={(e) => set("name", e.target.value)}
          />
        )}
        {(draft.kind === "substituted" || draft.kind === "price") && (
          <TextField
            label="Unit price"
            inputMode="decimal"
            value={draft.unitPrice}
            error={errors.unitPrice}
            onChange={(e) => set("unitPrice", e.target.value)}
          />
        )}
        {(draft.kind === "substituted" || draft.kind === "quantity") && (
          <TextField
            label="Quantity delivered"
            optional={draft.kind === "substituted"}
            inputMode="numeric"
            value={draft.quantity}
            error={errors.quantity}
            onChange={(e) => set("quantity", e.target.value)}
          />
        )}
        {(draft.kind === "refund" || draft.kind === "order_fee") && (
          <TextField
            label={draft.kind === "refund" ? "Amount refunded" : "Amount"}
            inputMode="decimal"
            value={draft.amount}
            error={errors.amount}
            onChange={(e) => set("amount", e.target.value)}
          />
        )}
        <TextField
          label="Note"
          optional
          value={draft.note}
          maxLength={500}
          error={errors.note}
          onChange={(e) => set("note", e.target.value)}
        />
      </div>
      <FormAlert message={failure} />
      <div className="flex justify-end">
        <Button type="submit" loading={action.isPending}>
          Record change
        </Button>
      </div>
    </form>
  );
}
