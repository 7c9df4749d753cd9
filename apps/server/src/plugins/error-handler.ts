import { ErrorCode } from "@cartner/contract";
import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError } from "../lib/errors.ts";

/** Fastify's own client-error codes, mapped to API.md's error shape. */
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
};

/** Errors that mean the database is out of reach (node-postgres and PGlite). */
function isDatabaseDown(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return (
    code === "ECONNREFUSED" ||
    code === "ECONNRESET" ||
    code === "57P01" || // admin_shutdown
    code === "57P03" || // cannot_connect_now
    (error instanceof Error &&
      /Connection terminated|timeout exceeded when trying to connect/i.test(error.message))
  );
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined) {
        reply.header("retry-after", String(error.retryAfterSeconds));
      }
      return reply.code(error.status).send({
        message: error.message,
        code: error.code,
        ...(error.fields ? { fields: error.fields } : {}),
      });
    }

    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const path = issue.instancePath.replace(/^\//, "").replaceAll("/", ".");
        const field =
          path ||
          // Unknown keys are reported on the object itself; name them.
          (issue.params as { keys?: string[] })?.keys?.join(",") ||
          error.validationContext ||
          "body";
        fields[field] ??= issue.message ?? "Invalid value";
      }
      const [first] = Object.entries(fields);
      return reply.code(400).send({
        message: first ? `Invalid ${first[0]}: ${first[1]}` : "Invalid request",
        code: ErrorCode.VALIDATION,
        fields,
      });
    }

    const fastifyCode = (error as FastifyError).code;
    const known = fastifyCode ? FASTIFY_CLIENT_ERRORS[fastifyCode] : undefined;
    const status = (error as FastifyError).statusCode ?? 500;
    if (known) return reply.code(status).send(known);

    if (isDatabaseDown(error)) {
      request.log.error({ err: error }, "database unreachable");
      return reply.code(503).header("retry-after", "5").send({
        message: "The service is briefly unavailable. Please retry.",
        code: ErrorCode.UNAVAILABLE,
      });
    }

    if (status >= 400 && status < 500) {
      return reply.code(status).send({
        message: error.message || "Bad request",
        code: status === 404 ? ErrorCode.NOT_FOUND : ErrorCode.VALIDATION,
      });
    }

    request.log.error({ err: error }, "unhandled error");
    return reply
      .code(500)
      .send({ message: "Something went wrong on our side", code: ErrorCode.INTERNAL });
  });
}
