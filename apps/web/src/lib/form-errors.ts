/** A field name → message map, as the API's `fields` and our own checks produce. */
export type FieldErrors = Partial<Record<string, string>>;

interface Issue {
  path: PropertyKey[];
  message: string;
}

/** Turns zod issues into one message per top-level field (the first one wins). */
export function issuesToFieldErrors(issues: readonly Issue[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path[0];
    if (typeof key === "string" && errors[key] === undefined) errors[key] = issue.message;
  }
  return errors;
}

/** Moves focus to the first invalid control of a form, so keyboard and screen reader users land on it. */
export function focusFirstError(form: HTMLFormElement, errors: FieldErrors, order: string[]): void {
  const first = order.find((name) => errors[name]);
  if (!first) return;
  const control = form.elements.namedItem(first);
  if (control instanceof HTMLElement) control.focus();
}
