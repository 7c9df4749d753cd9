import { ErrorCode } from "@cartner/contract";

/** The one error type services throw; the error handler turns it into API.md's error shape. */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string> | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { fields?: Record<string, string>; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = options.fields;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const notFound = (message = "Not found") => new AppError(404, ErrorCode.NOT_FOUND, message);
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

/** A 400 naming the fields at fault, the first one in the message (API.md's error shape). */
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
