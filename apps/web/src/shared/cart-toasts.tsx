import { Undo2 } from "lucide-react";
import { UNDO_TOAST_MS } from "@cartner/contract";
import { toast } from "../lib/toast.ts";
import { errorMessage } from "../lib/api.ts";

/** Most toasts stay 6 to 10 s, longer than the 5 s default. */
export const FAILURE_AUTO_CLOSE_MS = 8000;
export const SUCCESS_AUTO_CLOSE_MS = 6000;

/** A toast's text: the fixed message, and the server's reason (e.g. out of stock) below it. */
function TwoLines({ title, detail }: { title: string; detail: string }) {
  return (
    <div className="flex flex-col gap-0.5">
      <p className="font-semibold">{title}</p>
      <p className="text-sm">{detail}</p>
    </div>
  );
}

/** An error toast: `title`, plus the server's message when it has one worth showing. */
export function failureToast(title: string, error: unknown, toastId?: string): void {
  const detail = errorMessage(error, "").trim();
  const content = detail && detail !== title ? <TwoLines title={title} detail={detail} /> : title;
  toast.error(content, {
    autoClose: FAILURE_AUTO_CLOSE_MS,
    ...(toastId ? { toastId } : {}),
  });
}

export function successToast(message: string): void {
  toast.success(message, { autoClose: SUCCESS_AUTO_CLOSE_MS });
}

/**
 * After a removal: what was removed, and Undo for UNDO_TOAST_MS (the toast pauses while hovered or
 * focused, and Alt+T reaches it from the keyboard). `toastId` lets the caller take it back.
 */
export function undoToast(message: string, onUndo: () => void, toastId: string): void {
  toast.plain(
    ({ closeToast }) => (
      <div className="flex w-full items-center gap-3">
        <p className="min-w-0 flex-1 font-medium break-words">{message}</p>
        <button
          type="button"
          className="inline-flex shrink-0 items-center gap-1.5 rounded-lg bg-primary-50 px-3 py-1.5 text-sm font-semibold text-primary-700 ring-1 ring-primary-200 ring-inset hover:bg-primary-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-600"
          onClick={() => {
            closeToast();
            onUndo();
          }}
        >
          <Undo2 aria-hidden="true" className="size-4" />
          Undo
        </button>
      </div>
    ),
    { toastId, autoClose: UNDO_TOAST_MS, closeButton: false },
  );
}
