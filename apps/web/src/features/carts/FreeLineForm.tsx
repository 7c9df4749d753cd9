import { useState, type FormEvent } from "react";
import { PencilLine } from "lucide-react";
import {
  FREE_LINE_ESTIMATE_MAX,
  FREE_LINE_NAME_MAX_LENGTH,
  LINE_NOTE_MAX_LENGTH,
  QUANTITY_MAX,
  QUANTITY_MIN,
  type Member,
} from "@cartner/contract";
import { cartWrite, useCartWrites } from "../../api/cart-writes.ts";
import { Button, TextField } from "../../components/ui/index.ts";
import { focusFirstError, type FieldErrors } from "../../lib/form-errors.ts";
import { useDisclosure } from "../../lib/use-disclosure.ts";
import { KeepPrivateFrom } from "./KeepPrivateFrom.tsx";

export const ADD_FREE_LINE_LABEL = "Add something not in the list";

const FIELDS = ["name", "quantity", "estimatedPrice", "note"];

/** What the form says, checked as the server checks it; the body it sends, or the errors. */
export function freeLineBody(values: {
  name: string;
  quantity: string;
  estimatedPrice: string;
  note: string;
}):
  | { body: { name: string; quantity: number; estimatedPrice?: number; note?: string } }
  | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const name = values.name.trim();
  const note = values.note.trim();
  const quantity = Number(values.quantity);
  const price = values.estimatedPrice.trim() === "" ? undefined : Number(values.estimatedPrice);
  if (!name) errors.name = "Name what you need";
  else if (name.length > FREE_LINE_NAME_MAX_LENGTH) {
    errors.name = `At most ${FREE_LINE_NAME_MAX_LENGTH} characters`;
  }
  if (!Number.isInteger(quantity) || quantity < QUANTITY_MIN || quantity > QUANTITY_MAX) {
    errors.quantity = `A whole number from ${QUANTITY_MIN} to ${QUANTITY_MAX}`;
  }
  if (price !== undefined) {
    if (!Number.isFinite(price) || price < 0) errors.estimatedPrice = "A price of 0 or more";
    else if (price > FREE_LINE_ESTIMATE_MAX) errors.estimatedPrice = "That price is too large";
    else if (Math.abs(price * 100 - Math.round(price * 100)) > 1e-6) {
      errors.estimatedPrice = "At most two decimals";
    }
  }
  if (note.length > LINE_NOTE_MAX_LENGTH)
    errors.note = `At most ${LINE_NOTE_MAX_LENGTH} characters`;
  if (Object.keys(errors).length > 0) return { errors };
  return {
    body: {
      name,
      quantity,
      ...(price !== undefined ? { estimatedPrice: price } : {}),
      ...(note ? { note } : {}),
    },
  };
}

const EMPTY = { name: "", quantity: "1", estimatedPrice: "", note: "" };

/**
 * Something the catalog does not have ("birthday candles"), added by name with an optional
 * estimated unit price and a note: shown as "estimated" until the payee prices it on the order.
 * It goes as a cart write (queued offline, replayed in order with the others): the form checks
 * what the server checks, closes at once, and the cart draws the line as pending until the server
 * has it; a refusal is a toast with the server's reason, as for every cart write. "Keep it
 * private from…" sends it hidden from the members picked (`hiddenFrom`).
 */
export function FreeLineForm({
  cartId,
  members,
  userId,
}: {
  cartId: string;
  /** The session's members, of whom the line can be kept private. */
  members: readonly Member[];
  userId: string | null | undefined;
}) {
  const { formId, open, show, close: hide, toggleRef } = useDisclosure();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [hiddenFrom, setHiddenFrom] = useState<string[]>([]);
  const send = useCartWrites();

  function close() {
    setValues(EMPTY);
    setErrors({});
    setHiddenFrom([]);
    hide();
  }

  if (!open) {
    return (
      <Button
        ref={toggleRef}
        variant="secondary"
        size="sm"
        className="w-fit"
        aria-expanded={false}
        aria-controls={formId}
        onClick={show}
      >
        <PencilLine aria-hidden="true" className="size-4" />
        {ADD_FREE_LINE_LABEL}
      </Button>
    );
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = freeLineBody(values);
    if ("errors" in checked) {
      setErrors(checked.errors);
      focusFirstError(event.currentTarget, checked.errors, FIELDS);
      return;
    }
    const body = hiddenFrom.length > 0 ? { ...checked.body, hiddenFrom } : checked.body;
    send(cartWrite({ op: "freeLine", cartId, body }));
    close();
  }

  const field = (name: keyof typeof EMPTY) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) =>
      setValues((v) => ({ ...v, [name]: event.target.value })),
  });

  return (
    <form
      id={formId}
      noValidate
      aria-label={ADD_FREE_LINE_LABEL}
      onSubmit={onSubmit}
      className="flex flex-col gap-3 rounded-2xl bg-slate-50 p-4 ring-1 ring-slate-900/5"
    >
      <h3 className="font-semibold text-ink">{ADD_FREE_LINE_LABEL}</h3>
      <TextField
        label="Name"
        autoFocus
        autoComplete="off"
        maxLength={FREE_LINE_NAME_MAX_LENGTH}
        placeholder="Birthday candles"
        {...field("name")}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Quantity"
          type="number"
          inputMode="numeric"
          min={QUANTITY_MIN}
          max={QUANTITY_MAX}
          {...field("quantity")}
        />
        <TextField
          label="Estimated price each"
          optional
          type="number"
          inputMode="decimal"
          min={0}
          step="0.01"
          {...field("estimatedPrice")}
        />
      </div>
      <TextField
        label="Note for the shopper"
        optional
        autoComplete="off"
        maxLength={LINE_NOTE_MAX_LENGTH}
        placeholder="The good one from the market"
        {...field("note")}
      />
      <KeepPrivateFrom
        members={members}
        userId={userId}
        picked={hiddenFrom}
        onChange={setHiddenFrom}
      />
      <p className="text-xs text-slate-500">
        Its price counts as an estimate until whoever pays the shop prices it on the order.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm">
          Add to cart
        </Button>
        <Button type="button" variant="ghost" size="sm" onClick={close}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
