import { ErrorCode } from "@cartner/contract";
import crypto from "node:crypto";
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError, invalidFields, issueField } from "../lib/errors.ts";
import { loggableError } from "../lib/loggable-error.ts";
import { REQUEST_ID_HEADER } from "./request-id.ts";

/** Fastify's own client-error codes, mapped to the API's `{ message, code }` error shape. */
const FASTIFY_CLIENT_ERRORS: Record<string, { code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: ErrorCode.INVALID_JSON,
    message: "The body is not valid JSON",
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: ErrorCode.INVALID_JSON,
    message: "The body is empty but says it is JSON",
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: ErrorCode.PAYLOAD_TOO_LARGE,
    message: "The body is too large",
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    message: "Unsupported content type",
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: ErrorCode.VALIDATION,
    message: "Content-Length does not match the body",
  },
  // @fastify/multipart's limits (413) and its guard against prototype pollution (400).
  FST_REQ_FILE_TOO_LARGE: { code: ErrorCode.PAYLOAD_TOO_LARGE, message: "The file is too large" },
  FST_FILES_LIMIT: { code: ErrorCode.PAYLOAD_TOO_LARGE, message: "The form has too many files" },
  FST_FIELDS_LIMIT: { code: ErrorCode.PAYLOAD_TOO_LARGE, message: "The form has too many fields" },
  FST_PARTS_LIMIT: { code: ErrorCode.PAYLOAD_TOO_LARGE, message: "The form has too many parts" },
  FST_PROTO_VIOLATION: { code: ErrorCode.VALIDATION, message: "A field name is not allowed" },
};

/** SQLSTATEs that mean the server cannot be reached or is going away, not a wrong query. */
const DATABASE_DOWN_SQLSTATES = new Set([
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, recovering)
  "53300", // too_many_connections
]);
const DATABASE_DOWN_ERRNOS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
const DATABASE_DOWN_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Client was closed|Cannot use a pool after calling end|PGlite is closed/i;

/**
 * Errors that mean the database is out of reach (node-postgres and PGlite). Drizzle wraps the
 * driver's error as `cause`, and a failed connection to several addresses is an AggregateError:
 * look through both.
 */
export function isDatabaseDown(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (DATABASE_DOWN_ERRNOS.has(code) || DATABASE_DOWN_SQLSTATES.has(code)) return true;
    if (code.startsWith("08")) return true; // connection_exception class
  }
  if (error instanceof Error && DATABASE_DOWN_MESSAGES.test(error.message)) return true;
  if (error instanceof AggregateError && error.errors.some((e) => isDatabaseDown(e, depth + 1))) {
    return true;
  }
  return isDatabaseDown((error as { cause?: unknown }).cause, depth + 1);
}

/** SQLSTATEs for text the database cannot store (NUL, an invalid byte sequence): the client's. */
const INVALID_TEXT_SQLSTATES = new Set(["22021", "22P05"]);

/** The driver's SQLSTATE, looking through Drizzle's wrapping (`cause`). */
function sqlState(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== "object" || depth > 5) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  return sqlState((error as { cause?: unknown }).cause, depth + 1);
}

/** While the database is down every request fails alike: one log line per this interval. */
const DATABASE_DOWN_LOG_INTERVAL_MS = 10_000;

function sendAppError(reply: FastifyReply, error: AppError) {
  if (error.retryAfterSeconds !== undefined) {
    reply.header("retry-after", String(error.retryAfterSeconds));
  }
  return reply.code(error.status).send({
    ...error.details,
    message: error.message,
    code: error.code,
    ...(error.fields ? { fields: error.fields } : {}),
    requestId: reply.request.id,
  });
}

/** An error answer in the API's shape: `{ message, code, requestId }` (the id of this request). */
export function sendError(
  reply: FastifyReply,
  status: number,
  body: { message: string; code: string },
) {
  return reply.code(status).send({ ...body, requestId: reply.request.id });
}

/**
 * Errors Fastify answers before any route (a path parameter over maxParamLength, a malformed
 * URL): the API's `{ message, code }` shape, never echoing the path (a 414 once echoed it).
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // No onRequest hook ran before these: the request id header, and the API's no-store
  // (plugins/answer-headers.ts), are set here.
  reply.header(REQUEST_ID_HEADER, request.id);
  if (request.url.startsWith("/api/")) reply.header("cache-control", "no-store");
  if (error.code === "FST_ERR_MAX_PARAM_LENGTH") {
    return sendError(reply, 414, {
      message: "The address is too long.",
      code: ErrorCode.URI_TOO_LONG,
    });
  }
  return sendError(reply, 400, {
    message: "The address is malformed.",
    code: ErrorCode.VALIDATION,
  });
}

const CLIENT_ERRORS: Record<string, { status: number; message: string; code: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    message: "The request's headers are too large.",
    code: ErrorCode.HEADERS_TOO_LARGE,
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    message: "The request took too long to arrive.",
    code: ErrorCode.REQUEST_TIMEOUT,
  },
};

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers too large, a timeout,
 * garbage): answered on the raw socket in the API's `{ message, code }` shape, not Fastify's own.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const known = CLIENT_ERRORS[error.code ?? ""] ?? {
    status: 400,
    message: "The request is malformed.",
    code: ErrorCode.VALIDATION,
  };
  // Refused before Fastify made a request of it, so it gets an id of its own (and no log line).
  const requestId = crypto.randomUUID();
  const body = JSON.stringify({ message: known.message, code: known.code, requestId });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${known.status} ${STATUS_CODES[known.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export function installErrorHandling(app: FastifyInstance): void {
  let databaseDownLoggedAt = -Infinity;
  let databaseDownUnlogged = 0;

  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) return sendAppError(reply, error);

    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const path = issue.instancePath.replace(/^\//, "").replaceAll("/", ".");
        const [field, message] = issueField(
          path,
          issue.message,
          (issue.params as { keys?: string[] } | undefined)?.keys,
        );
        // A whole-body issue is named by where it was found (body, querystring, params).
        fields[field === "body" ? (error.validationContext ?? field) : field] ??= message;
      }
      return sendAppError(reply, invalidFields(fields));
    }

    const fastifyCode = (error as FastifyError).code;
    const known = fastifyCode ? FASTIFY_CLIENT_ERRORS[fastifyCode] : undefined;
    const status = (error as FastifyError).statusCode ?? 500;
    if (known) return sendError(reply, status, known);

    // The schemas refuse such text first; this is the net for a field that slipped through.
    if (INVALID_TEXT_SQLSTATES.has(sqlState(error) ?? "")) {
      return sendError(reply, 400, {
        message: "The request contains characters that cannot be stored (such as NUL).",
        code: ErrorCode.VALIDATION,
      });
    }

    if (isDatabaseDown(error)) {
      const now = performance.now();
      if (now - databaseDownLoggedAt >= DATABASE_DOWN_LOG_INTERVAL_MS) {
        request.log.error(
          { err: loggableError(error), alsoFailedSinceLastLine: databaseDownUnlogged },
          "database unreachable",
        );
        databaseDownLoggedAt = now;
        databaseDownUnlogged = 0;
      } else {
        databaseDownUnlogged += 1;
      }
      return sendError(reply.header("retry-after", "5"), 503, {
        message: "The database is unavailable right now. Please try again in a moment.",
        code: ErrorCode.UNAVAILABLE,
      });
    }

    if (status >= 400 && status < 500) {
      return sendError(reply, status, {
        message: error.message || "Bad request",
        code:
          status === 404
            ? ErrorCode.NOT_FOUND
            : status === 413
              ? ErrorCode.PAYLOAD_TOO_LARGE
              : ErrorCode.VALIDATION,
      });
    }

    request.log.error({ err: loggableError(error) }, "unhandled error");
    return sendError(reply, 500, {
      message: "Something went wrong on our side",
      code: ErrorCode.INTERNAL,
    });
  });
}
