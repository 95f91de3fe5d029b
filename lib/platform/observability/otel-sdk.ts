import {
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
} from '@opentelemetry/sdk-trace-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { env } from '@/lib/env';

/**
 * The OpenTelemetry SDK, started once per server process from instrumentation.ts when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set. The standard variables configure it: the endpoint
 * (`/v1/traces` is added to OTEL_EXPORTER_OTLP_ENDPOINT), OTEL_EXPORTER_OTLP_HEADERS for a
 * collector's key, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER and its _ARG, OTEL_BSP_SCHEDULE_DELAY
 * and the others of the batch processor. Registering it makes it the global tracer provider,
 * with the async-hooks context manager and the W3C trace-context propagator; Next's own spans
 * use it too. No resource detectors run: the service's name is the resource.
 */
export function startTraceExport(): { shutdown: () => Promise<void> } {
  const sampler = defaultSampler();
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: env().OTEL_SERVICE_NAME }),
    // Only when it is ours to choose: a `sampler` key, even undefined, hides the SDK's own from the variables.
    ...(sampler ? { sampler } : {}),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  return { shutdown: () => provider.shutdown() };
}

/** The share of traces kept when OTEL_TRACES_SAMPLER is unset (docs/operating.md#traces). */
export const DEFAULT_TRACE_RATIO = 0.1;

/**
 * Which traces are kept. OTEL_TRACES_SAMPLER set: the SDK reads it and its _ARG, as anywhere.
 * Unset, this service's default is `parentbased_traceidratio` at OTEL_TRACES_SAMPLER_ARG, or
 * one trace in ten without it, instead of the SDK's `parentbased_always_on`: every kept trace
 * costs its spans' building, serialising and posting on the cores that serve (measured in
 * scripts/bench/HISTORY.md). Parent-based, so the decision is taken once, at a trace's root
 * (a storefront page, an API request from elsewhere, a job's pass), and a kept trace keeps
 * its whole tree; a caller's traceparent that says "sampled" is followed.
 */
export function defaultSampler(vars: Record<string, string | undefined> = process.env): Sampler | undefined {
  if (vars.OTEL_TRACES_SAMPLER?.trim()) return undefined;
  const arg = Number(vars.OTEL_TRACES_SAMPLER_ARG?.trim() || Number.NaN);
  const ratio = arg >= 0 && arg <= 1 ? arg : DEFAULT_TRACE_RATIO;
  return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
}
