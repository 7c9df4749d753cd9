import { useId, type ComponentProps, type ReactNode } from "react";
import { CircleAlert } from "lucide-react";
import { cn } from "../../lib/cn.ts";
import { Input, NativeSelect } from "./Input.tsx";
import { Label } from "./Label.tsx";

/** A field's error, in a polite live region that is always present so changes are announced. */
export function FieldError({
  id,
  message,
  live = true,
}: {
  id: string;
  message?: string | undefined;
  /** False when a toast already announces the same text. */
  live?: boolean;
}) {
  return (
    <p
      id={id}
      aria-live={live ? "polite" : undefined}
      className={cn(message ? "flex items-start gap-1.5 text-sm text-danger-700" : "sr-only")}
    >
      {message && <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />}
      {message}
    </p>
  );
}

interface FormAlertProps {
  message?: string | null | undefined;
  className?: string;
  /**
   * Announce the message as it appears (default). Pass false when a toast with the same text
   * already announces it, so screen readers do not hear it twice; it then stays as a visual note.
   */
  live?: boolean;
}

/** A form-level error (e.g. the server said no), shown above the submit button. */
export function FormAlert({ message, className, live = true }: FormAlertProps) {
  // A live region must exist before its text changes; a quiet one can simply be absent.
  if (!live && !message) return null;
  return (
    <div role={live ? "alert" : undefined} className={className}>
      {message ? (
        <p className="flex items-start gap-2 rounded-xl border border-danger-100 bg-danger-50 px-3.5 py-3 text-sm text-danger-800">
          <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>{message}</span>
        </p>
      ) : null}
    </div>
  );
}

interface FieldFrameProps {
  label: string;
  hint?: ReactNode;
  error?: string | undefined;
  optional?: boolean | undefined;
  className?: string | undefined;
}

function useFieldIds(id: string | undefined, hint: ReactNode, error: string | undefined) {
  const autoId = useId();
  const controlId = id ?? autoId;
  const hintId = `${controlId}-hint`;
  const errorId = `${controlId}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ");
  return { controlId, hintId, errorId, describedBy: describedBy || undefined };
}

export type TextFieldProps = Omit<ComponentProps<"input">, "className"> & FieldFrameProps;

/** Label + input + hint + error, wired together for assistive tech. */
export function TextField({
  label,
  hint,
  error,
  optional,
  className,
  id,
  ...props
}: TextFieldProps) {
  const ids = useFieldIds(id, hint, error);
  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <Label htmlFor={ids.controlId} optional={optional}>
        {label}
      </Label>
      <Input
        id={ids.controlId}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
        {...props}
      />
      {hint ? (
        <p id={ids.hintId} className="text-sm text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldError id={ids.errorId} message={error} />
    </div>
  );
}

export type SelectFieldProps = Omit<ComponentProps<"select">, "className"> & FieldFrameProps;

export function SelectField({
  label,
  hint,
  error,
  optional,
  className,
  id,
  children,
  ...props
}: SelectFieldProps) {
  const ids = useFieldIds(id, hint, error);
  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <Label htmlFor={ids.controlId} optional={optional}>
        {label}
      </Label>
      <NativeSelect
        id={ids.controlId}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
        {...props}
      >
        {children}
      </NativeSelect>
      {hint ? (
        <p id={ids.hintId} className="text-sm text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldError id={ids.errorId} message={error} />
    </div>
  );
}
