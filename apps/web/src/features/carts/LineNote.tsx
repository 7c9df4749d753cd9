import { useState, type FormEvent } from "react";
import { MessageSquareText } from "lucide-react";
import {
  LINE_NOTE_MAX_LENGTH,
  LINE_SUBSTITUTES,
  type CartLine,
  type LineSubstitute,
} from "@cartner/contract";
import { cartWrite, useCartWrites } from "../../api/cart-writes.ts";
import { Button, SelectField, TextField } from "../../components/ui/index.ts";
import type { FieldErrors } from "../../lib/form-errors.ts";
import { useDisclosure } from "../../lib/use-disclosure.ts";
import { SUBSTITUTE_LABELS } from "./line-remarks.tsx";

/**
 * Edits a line's note and substitute: its adder or the creator, while the cart is open. What the
 * form shows is what it sends; an empty note takes the note away. The edit is a cart write
 * (queued offline, replayed in order after the changes made before it): the form closes at once
 * and the line shows the new note as pending until the server has it.
 */
export function LineNoteEditor({ cartId, line }: { cartId: string; line: CartLine }) {
  const name = line.productId.name;
  const { formId, open, show, close: hide, toggleRef } = useDisclosure();
  const [note, setNote] = useState(line.note ?? "");
  const [substitute, setSubstitute] = useState<LineSubstitute>(line.substitute ?? "any");
  const [errors, setErrors] = useState<FieldErrors>({});
  const send = useCartWrites();

  function close() {
    setErrors({});
    hide();
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmed = note.trim();
    if (trimmed.length > LINE_NOTE_MAX_LENGTH) {
      setErrors({ note: `At most ${LINE_NOTE_MAX_LENGTH} characters` });
      return;
    }
    send(
      cartWrite({
        op: "edit",
        cartId,
        lineId: line._id,
        name,
        body: { note: trimmed === "" ? null : trimmed, substitute },
      }),
    );
    close();
  }

  if (!open) {
    return (
      <button
        ref={toggleRef}
        type="button"
        aria-expanded={false}
        aria-controls={formId}
        aria-label={`Note and substitute: ${name}`}
        onClick={() => {
          setNote(line.note ?? "");
          setSubstitute(line.substitute ?? "any");
          show();
        }}
        className="inline-flex w-fit items-center gap-1 rounded-md text-xs font-semibold text-primary-700 hover:underline"
      >
        <MessageSquareText aria-hidden="true" className="size-3.5" />
        {line.note || line.substitute !== "any" ? "Edit note" : "Add a note"}
      </button>
    );
  }
  return (
    <form
      id={formId}
      noValidate
      aria-label={`Note and substitute for ${name}`}
      onSubmit={onSubmit}
      className="flex w-full min-w-0 flex-col gap-2 rounded-xl bg-slate-50 p-3 text-left ring-1 ring-slate-900/5"
    >
      <TextField
        label="Note for the shopper"
        name="note"
        autoFocus
        autoComplete="off"
        maxLength={LINE_NOTE_MAX_LENGTH}
        value={note}
        error={errors.note}
        onChange={(event) => setNote(event.target.value)}
      />
      <SelectField
        label="If it is not there"
        name="substitute"
        value={substitute}
        error={errors.substitute}
        onChange={(event) => setSubstitute(event.target.value as LineSubstitute)}
      >
        {LINE_SUBSTITUTES.map((choice) => (
          <option key={choice} value={choice}>
            {SUBSTITUTE_LABELS[choice]}
          </option>
        ))}
      </SelectField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm">
          Save
        </Button>
        <Button type="button" variant="ghost" size="sm" onClick={close}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
