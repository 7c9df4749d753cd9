import type { SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { FastifyInstance } from "fastify";
import type { Config } from "../config.ts";

/** The span attribute that holds the request's id (its X-Request-Id and log lines' requestId). */
export const REQUEST_ID_ATTRIBUTE = "http.request.id";

/**
 * OpenTelemetry traces of every request (@fastify/otel), exported over OTLP/HTTP, only when
 * configured (OTEL_EXPORTER_OTLP_ENDPOINT): the SDK is imported here, on demand, so a server
 * without it loads none of it. Each request's span carries its request id. Register before the
 * routes: the plugin instruments each route as it is added. `exporter` replaces OTLP (tests).
 */
export async function registerTracing(
  app: FastifyInstance,
  otel: Config["otel"],
  exporter?: SpanExporter,
): Promise<void> {
  if (!otel) return;
  const [
    { FastifyOtelInstrumentation },
    node,
    base,
    { OTLPTraceExporter },
    { resourceFromAttributes },
  ] = await Promise.all([
    import("@fastify/otel"),
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
  ]);
  const provider = new node.NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": otel.serviceName }),
    spanProcessors: [
      exporter
        ? new base.SimpleSpanProcessor(exporter)
        : new base.BatchSpanProcessor(new OTLPTraceExporter({ url: otel.tracesUrl })),
    ],
  });
  // The context manager (spans nest) and W3C trace context (a caller's traceparent continues).
  provider.register();
  const instrumentation = new FastifyOtelInstrumentation({
    requestHook: (span, request) => span.setAttribute(REQUEST_ID_ATTRIBUTE, request.id),
  });
  instrumentation.setTracerProvider(provider);
  await app.register(instrumentation.plugin());
  // Registered before the rest, so it closes after them (onClose hooks run last registered
  // first): their spans are flushed too.
  app.addHook("onClose", async () => provider.shutdown());
}
