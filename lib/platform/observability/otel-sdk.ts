import { NodeTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { env } from '@/lib/env';

/**
 * The OpenTelemetry SDK, started once per server process from instrumentation.ts when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set. The standard variables configure it: the endpoint
 * (`/v1/traces` is added to OTEL_EXPORTER_OTLP_ENDPOINT), OTEL_EXPORTER_OTLP_HEADERS for a
 * collector's key, OTEL_SERVICE_NAME, OTEL_BSP_SCHEDULE_DELAY and the others of the batch
 * processor. Registering it makes it the global tracer provider, with the async-hooks
 * context manager and the W3C trace-context propagator; Next's own spans use it too.
 */
export function startTraceExport(): { shutdown: () => Promise<void> } {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: env().OTEL_SERVICE_NAME }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  return { shutdown: () => provider.shutdown() };
}
