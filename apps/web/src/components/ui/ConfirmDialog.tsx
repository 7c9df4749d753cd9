import { useEffect, useId, useRef, type ReactNode } from "react";
import { TriangleAlert } from "lucide-react";
import { cn } from "../../lib/cn.ts";
import { Button } from "./Button.tsx";

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  description?: ReactNode;
  /** More than a description: controls that shape what is confirmed (below it, full width). */
  children?: ReactNode;
  confirmLabel: string;
  /** The confirm button stays disabled until what the children ask for is complete. */
  confirmDisabled?: boolean;
  cancelLabel?: string;
  /** "danger" (default) for destructive actions. */
  tone?: "danger" | "primary";
  onConfirm: () => void;
  /** Called on Cancel, Escape and a click on the backdrop. */
  onCancel: () => void;
}

/**
 * A confirmation on the native <dialog> (showModal): focus is trapped and restored, Escape cancels,
 * and nothing injects styles, so it works under our strict Content-Security-Policy (Radix's Dialog
 * does not). Where showModal is missing (old browsers, jsdom) it opens as a plain open dialog.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  children,
  confirmLabel,
  confirmDisabled = false,
  cancelLabel = "Cancel",
  tone = "danger",
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (typeof dialog.showModal === "function") dialog.showModal();
      else dialog.setAttribute("open", "");
      // The safe choice has focus first.
      cancelRef.current?.focus();
    } else if (!open && dialog.open) {
      if (typeof dialog.close === "function") dialog.close();
      else dialog.removeAttribute("open");
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        // Escape: let React state drive the closing.
        event.preventDefault();
        onCancel();
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget) onCancel();
      }}
      className={cn(
        "m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md overflow-y-auto rounded-card bg-surface p-0 text-slate-700 shadow-lift",
        "backdrop:bg-slate-900/50 backdrop:backdrop-blur-[2px]",
      )}
    >
      {open && (
        <div className="flex flex-col gap-4 p-6">
          <div className="flex items-start gap-3">
            <span
              className={cn(
                "flex size-10 shrink-0 items-center justify-center rounded-full",
                tone === "danger"
                  ? "bg-danger-50 text-danger-600"
                  : "bg-primary-50 text-primary-600",
              )}
            >
              <TriangleAlert aria-hidden="true" className="size-5" />
            </span>
            <div className="flex min-w-0 flex-col gap-1.5">
              <h2 id={titleId} className="text-lg font-bold">
                {title}
              </h2>
              {description ? (
                <div id={descriptionId} className="text-sm text-slate-600">
                  {description}
                </div>
              ) : null}
            </div>
          </div>
          {children}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button ref={cancelRef} variant="secondary" onClick={onCancel}>
              {cancelLabel}
            </Button>
            <Button
              variant={tone === "danger" ? "danger" : "primary"}
              disabled={confirmDisabled}
              onClick={onConfirm}
            >
              {confirmLabel}
            </Button>
          </div>
        </div>
      )}
    </dialog>
  );
}
