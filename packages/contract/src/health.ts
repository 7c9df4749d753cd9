import { z } from "zod";
import { ApiErrorSchema } from "./errors.ts";

/** What readiness checks: the database answers, every migration ran, the live bus listens. */
export const READINESS_CHECKS = ["database", "migrations", "bus"] as const;
export type ReadinessCheck = (typeof READINESS_CHECKS)[number];

const CheckResultSchema = z.enum(["ok", "failed"]);
const ChecksSchema = z.object({
  database: CheckResultSchema,
  migrations: CheckResultSchema,
  bus: CheckResultSchema,
});

export const LiveResponseSchema = z.object({ status: z.literal("ok") });

export const ReadyResponseSchema = z.object({
  status: z.literal("ok"),
  checks: ChecksSchema,
});

/** 503: not ready; `failed` names the checks that failed (the message names them too). */
export const NotReadyErrorSchema = ApiErrorSchema.extend({
  checks: ChecksSchema,
  failed: z.array(z.enum(READINESS_CHECKS)).min(1),
});
