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
