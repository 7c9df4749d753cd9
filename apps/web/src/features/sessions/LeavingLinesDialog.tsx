import { useId, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { carriesShare, type Member } from "@cartner/contract";
import { sessionCartQuery } from "../../api/carts.ts";
import type { MemberLinesChoice } from "../../api/sessions.ts";
import { ConfirmDialog, NativeSelect, Spinner } from "../../components/ui/index.ts";

export interface LeavingLinesDialogProps {
  open: boolean;
  sessionId: string;
  /** Who leaves: removed by the creator, or the reader leaving (`self`). */
  leaver: { userId: string; name: string };
  self: boolean;
  /** The session's members, for whom the lines may go to (the creator and participants). */
  members: readonly Member[];
  title: string;
  description: string;
  confirmLabel: string;
  onConfirm: (lines: MemberLinesChoice) => void;
  onCancel: () => void;
}

/**
 * The confirm for removing a member or leaving: when they added lines to the cart, it names them
 * and asks what becomes of them (removed, or given to the creator or a participant who stays),
 * since nobody who is not a member pays for anything. The server refuses the change without
 * that choice, so a cart that cannot be read (offline) still gets a clear answer.
 */
export function LeavingLinesDialog(props: LeavingLinesDialogProps) {
  const { open, sessionId, leaver, self, members } = props;
  // Read afresh each time the dialog opens.
  const cart = useQuery({
    ...sessionCartQuery(sessionId),
    enabled: open,
    staleTime: 0,
    retry: false,
  });
  const [how, setHow] = useState<"remove" | "give">("remove");
  const recipients = members.filter((m) => carriesShare(m.role) && m.userId !== leaver.userId);
  const [to, setTo] = useState("");
  const headingId = useId();
  const reading = cart.isFetching;
  const own =
    !reading && cart.data
      ? cart.data.cart.products.filter((l) => l.addedBy._id === leaver.userId)
      : [];

  const recipient = recipients.some((m) => m.userId === to) ? to : (recipients[0]?.userId ?? "");
  const choice: MemberLinesChoice =
    own.length === 0 ? {} : how === "give" ? { lines: "give", to: recipient } : { lines: "remove" };
  const whose = self ? "You added" : `${leaver.name} added`;

  return (
    <ConfirmDialog
      open={open}
      title={props.title}
      description={props.description}
      confirmLabel={props.confirmLabel}
      confirmDisabled={reading || (how === "give" && recipient === "")}
      onConfirm={() => props.onConfirm(choice)}
      onCancel={props.onCancel}
    >
      {reading && (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner className="size-4" /> Checking the cart…
        </p>
      )}
      {own.length > 0 && (
        <fieldset aria-labelledby={headingId} className="flex flex-col gap-3">
          <legend id={headingId} className="text-sm font-semibold text-slate-800">
            {whose} {own.length === 1 ? "this item" : `these ${own.length} items`} to the cart:
          </legend>
          <ul className="list-disc pl-5 text-sm text-slate-700">
            {own.map((line) => (
              <li key={line._id}>
                {line.quantity > 1 ? `${line.quantity} × ` : ""}
                {line.productId.name}
              </li>
            ))}
          </ul>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name={`${headingId}-how`}
              checked={how === "remove"}
              onChange={() => setHow("remove")}
            />
            Remove {own.length === 1 ? "it" : "them"} from the cart
          </label>
          {recipients.length > 0 && (
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <label className="flex items-center gap-2">
                <input
                  type="radio"
                  name={`${headingId}-how`}
                  checked={how === "give"}
                  onChange={() => setHow("give")}
                />
                Give {own.length === 1 ? "it" : "them"} to
              </label>
              <NativeSelect
                aria-label="Who gets the items"
                value={recipient}
                onChange={(event) => {
                  setTo(event.target.value);
                  setHow("give");
                }}
                className="h-8 w-auto py-0 text-sm"
              >
                {recipients.map((m) => (
                  <option key={m.userId} value={m.userId}>
                    {m.name}
                  </option>
                ))}
              </NativeSelect>
            </div>
          )}
          <p className="text-xs text-slate-500">
            {self ? "You stop" : `${leaver.name} stops`} sharing any item with others either way.
          </p>
        </fieldset>
      )}
    </ConfirmDialog>
  );
}
