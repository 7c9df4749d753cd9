import { z } from "zod";
import { LiveResponseSchema, NotReadyErrorSchema, ReadyResponseSchema } from "../health.ts";
import type { EndpointGroup } from "./base.ts";

const prometheusText = z
  .string()
  .describe("text/plain; version=0.0.4: the Prometheus text exposition format");

/** What an operator and a load balancer ask: health and metrics. */
export const opsEndpoints = {
  "GET /api/health/live": {
    summary: "Liveness: the process answers (for load balancers)",
    access: "public",
    responses: { 200: LiveResponseSchema },
    errors: [],
  },
  "GET /api/health/ready": {
    summary:
      "Readiness: the database answers, every migration ran and the live bus listens; 503 names the checks that failed",
    access: "public",
    responses: { 200: ReadyResponseSchema },
    errors: [503],
    errorBodies: { 503: NotReadyErrorSchema },
  },
  "GET /metrics": {
    summary:
      "Prometheus metrics, with Authorization: Bearer <METRICS_TOKEN>; 404 while METRICS_TOKEN is unset",
    access: "token",
    responses: { 200: prometheusText },
    errors: [404],
  },
} as const satisfies EndpointGroup;
