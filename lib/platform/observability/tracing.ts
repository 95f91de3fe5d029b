import {
  context,
  INVALID_SPAN_CONTEXT,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { processSlot } from '@/lib/process-state';

/**
 * Traces (OpenTelemetry), exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set: the SDK is started from instrumentation.ts
 * (./otel-sdk.ts). Unset, nothing here makes a span: every helper checks `tracing()` first
 * and runs the work as it is, so tracing off costs a boolean per call site.
 *
 * The spans of a storefront page form one tree: Next's span for the page, the site-client's
 * span for each API call it makes (W3C traceparent goes with the call, over HTTP or in
 * process), the API's span named by the operation id, and a span for each database statement.
 */
const holder = processSlot<{ on?: boolean }>('tracing', () => ({}));

// The variables are validated with the others (lib/env.ts); read here directly, so that code
// any script or test imports (the mail drain, the caches) does not need the server's settings.
export function tracing(): boolean {
  return (holder.on ??= Boolean(process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT));
}

export const tracer = () => trace.getTracer('site-delivery');

/**
 * Runs `work` in a span of its own (a child of the active one, or of `parent`; a new trace's
 * root with `root`), ended when the work settles; a failure marks it as an error, with the
 * exception's type and message (never a body).
 *
 * Below no kept span, no span is made: under a parent the sampler dropped it would be dropped
 * too (the samplers are parent-based: docs/operating.md#traces), and a request whose trace was
 * dropped as it arrived runs with no span at all (otel-sdk.ts, `requestDecision`). So only a
 * job's pass or the like (`root`) starts a trace here. `work` then gets the parent's span, or
 * one that is no span, on which attributes and statuses are no-ops; its statements see the
 * same (none are made).
 */
export function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: Context; root?: boolean },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.root ? ROOT_CONTEXT : (options.parent ?? context.active());
  if (!options.root) {
    const above = trace.getSpan(parent);
    if (!above || (above.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return work(above ?? NO_SPAN);
  }
  return tracer().startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes },
    parent,
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        failed(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** What work outside a kept trace gets for its span: none that records. */
const NO_SPAN = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

export function failed(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
  if (error instanceof Error) span.recordException({ name: error.name, message: error.message });
}

/**
 * The parent of an API request's span: the active span when there is one (Next's own span for
 * the request, or the site-client's span of an in-process call), else the caller's
 * traceparent (a request the proxy answers early, before Next's spans).
 */
export function requestParent(req: Request): Context {
  const active = context.active();
  if (trace.getSpan(active)?.spanContext().traceId) return active;
  return propagation.extract(active, req.headers, {
    get: (carrier, key) => carrier.get(key) ?? undefined,
    keys: (carrier) => [...carrier.keys()],
  });
}

export { SpanKind };
