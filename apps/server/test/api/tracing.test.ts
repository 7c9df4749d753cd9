/**
 * OpenTelemetry: off unless OTEL_EXPORTER_OTLP_ENDPOINT is set; then each request is a span that
 * carries the request's id (the X-Request-Id answered, the log lines' requestId). An in-memory
 * exporter stands in for the collector.
 */
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { afterEach, expect, it } from "vitest";
import { REQUEST_ID_ATTRIBUTE } from "../../src/plugins/tracing.ts";
import { createTestApp, type TestApp } from "../helpers.ts";

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

it("records no span while no endpoint is configured", async () => {
  const exporter = new InMemorySpanExporter();
  t = await createTestApp({ spanExporter: exporter });
  const res = await t.app.inject({ method: "GET", url: "/api/health/live" });
  expect(res.statusCode).toBe(200);
  expect(exporter.getFinishedSpans()).toEqual([]);
});

it("with an endpoint, records each request's span with its request id", async () => {
  const exporter = new InMemorySpanExporter();
  t = await createTestApp({
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" },
    spanExporter: exporter,
  });
  const ids: string[] = [];
  for (const url of ["/api/health/live", "/api/sessions/not-a-uuid", "/api/no-such-route"]) {
    const res = await t.app.inject({ method: "GET", url });
    ids.push(String(res.headers["x-request-id"]));
  }
  const requestSpans = exporter
    .getFinishedSpans()
    .filter((span) => span.attributes[REQUEST_ID_ATTRIBUTE] !== undefined);
  expect(requestSpans.map((span) => span.attributes[REQUEST_ID_ATTRIBUTE]).sort()).toEqual(
    [...ids].sort(),
  );
  const live = requestSpans.find((span) => span.attributes[REQUEST_ID_ATTRIBUTE] === ids[0])!;
  expect(live.attributes["http.route"]).toBe("/api/health/live");
  expect(live.resource.attributes["service.name"]).toBe("cartner");
});
