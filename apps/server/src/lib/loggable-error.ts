const KEPT = ["code", "constraint", "table", "column", "routine", "severity"] as const;

/**
 * An error as it may be logged. Drizzle's query errors carry the query's parameters (emails,
 * names, password and code hashes) in their message, stack and `params`, and PostgreSQL's
 * `detail` quotes row values ("Key (email)=(...) already exists"): both are left out. The SQL
 * text, the codes and the stack frames stay, which is what finding the bug needs.
 */
export function loggableError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return error;
  const e = error as Error & Partial<Record<(typeof KEPT)[number], unknown>>;
  const withoutParams = (text: string | undefined) =>
    text?.replace(/\nparams: [\s\S]*?(?=\n\s+at |$)/, "\nparams: [not logged]");
  // Same prototype, so the logger still names its type (DrizzleQueryError, DatabaseError).
  const logged = Object.create(Object.getPrototypeOf(e) as object) as Record<string, unknown>;
  logged.message = withoutParams(e.message);
  logged.stack = withoutParams(e.stack);
  for (const key of KEPT) if (e[key] !== undefined) logged[key] = e[key];
  if (e.cause !== undefined && depth < 5) logged.cause = loggableError(e.cause, depth + 1);
  return logged;
}
