import { ErrorCode } from "@cartner/contract";

/** The one error type services throw; the error handler sends `{ message, code, fields? }`. */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string> | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** More keys of the answer beside message, code and fields (the route's errorBodies say which). */
  readonly details: Record<string, unknown> | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    options: {
      fields?: Record<string, string>;
      retryAfterSeconds?: number;
      details?: Record<string, unknown>;
    } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = options.fields;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.details = options.details;
  }
}

export const notFound = (message = "Not found") => new AppError(404, ErrorCode.NOT_FOUND, message);
export const forbidden = (message: string) => new AppError(403, ErrorCode.FORBIDDEN, message);
export const conflict = (message: string, code: string = ErrorCode.CONFLICT) =>
  new AppError(409, code, message);
export const badRequest = (message: string, code: string = ErrorCode.VALIDATION) =>
  new AppError(400, code, message);

/**
 * True when a write failed on a unique constraint (SQLSTATE 23505), optionally a given one: read
 * from the driver's error fields (node-postgres and PGlite alike), also when Drizzle wrapped it.
 */
export function isUniqueViolation(error: unknown, constraint?: string, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  const {
    code,
    constraint: name,
    cause,
  } = error as {
    code?: unknown;
    constraint?: unknown;
    cause?: unknown;
  };
  if (code === "23505") return constraint === undefined || name === constraint;
  return isUniqueViolation(cause, constraint, depth + 1);
}
export const unauthorized = (message = "Please sign in", code: string = ErrorCode.UNAUTHORIZED) =>
  new AppError(401, code, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, ErrorCode.RATE_LIMITED, message, { retryAfterSeconds });

/** What an unknown key in a body is told (zod's own message would repeat the key in full). */
export const UNKNOWN_FIELD = "Unrecognized field";

/**
 * One validation issue as [field, message]: the path, and for unknown keys (reported on the
 * object that holds them) the keys themselves, cut, with a message of our own.
 */
export function issueField(
  path: string,
  message: string | undefined,
  unknownKeys?: string[],
): [string, string] {
  const keys = unknownKeys?.map((key) => echoName(key)).join(",");
  const field = [path, keys].filter(Boolean).join(".") || "body";
  return [field, unknownKeys ? UNKNOWN_FIELD : (message ?? "Invalid value")];
}

/** A name a client chose (a field, a key), cut before it is echoed: one may be 20 KB long. */
export function echoName(name: string, max = 40): string {
  return name.length > max ? `${name.slice(0, max)}…` : name;
}

/** A 400 naming the fields at fault in `fields`, the first one also in the message. */
export function invalidFields(fields: Record<string, string>): AppError {
  const cut = Object.fromEntries(
    Object.entries(fields).map(([field, message]) => [echoName(field), message]),
  );
  const [first] = Object.entries(cut);
  return new AppError(
    400,
    ErrorCode.VALIDATION,
    first ? `Invalid ${first[0]}: ${first[1]}` : "Invalid request",
    { fields: cut },
  );
}
