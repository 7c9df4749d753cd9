import { useId, type ReactNode } from "react";
import { FieldError, Label } from "../../components/ui/index.ts";
import { cn } from "../../lib/cn.ts";

export const checkboxClasses =
  "size-4.5 shrink-0 cursor-pointer rounded border-slate-300 accent-primary-600 " +
  "focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-primary-500/60";

export interface ControlProps {
  id: string;
  disabled: boolean;
  "aria-describedby": string | undefined;
  "aria-invalid": true | undefined;
}

/** A labelled checkbox (e.g. "Change Email") in our style. */
export function Checkbox({
  label,
  checked,
  onChange,
  description,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  description?: string;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={description ? `${id}-desc` : undefined}
        className={cn(checkboxClasses, "mt-0.5")}
      />
      <div className="flex flex-col">
        <label htmlFor={id} className="cursor-pointer text-sm font-semibold text-slate-800">
          {label}
        </label>
        {description ? (
          <p id={`${id}-desc`} className="text-sm text-slate-500">
            {description}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/**
 * One field of the profile editor: a checkbox that enables it, its label, the control, a hint and
 * its error. The control is rendered by the caller with the ids and state it is given.
 */
export function CheckField({
  label,
  enabled,
  onToggle,
  hint,
  error,
  children,
}: {
  label: string;
  enabled: boolean;
  onToggle: (enabled: boolean) => void;
  hint?: ReactNode;
  error?: string | undefined;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  const controlId = `${id}-control`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ");
  return (
    <div
      className={cn(
        "flex flex-col gap-2 rounded-xl p-3 ring-1 sm:p-4 transition-colors ring-inset",
        enabled ? "bg-primary-50/40 ring-primary-200" : "bg-white ring-slate-200",
      )}
    >
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
        <Label htmlFor={controlId}>{label}</Label>
        <label className="flex cursor-pointer items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={enabled}
            onChange={(event) => onToggle(event.target.checked)}
            className={checkboxClasses}
          />
          Update {label.toLowerCase()}
        </label>
      </div>
      {children({
        id: controlId,
        disabled: !enabled,
        "aria-describedby": describedBy || undefined,
        "aria-invalid": error ? true : undefined,
      })}
      {hint ? (
        <p id={hintId} className="text-sm text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} message={error} />
    </div>
  );
}
