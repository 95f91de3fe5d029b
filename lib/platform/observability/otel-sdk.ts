import { context, trace, TraceFlags, type Context, type Span, type SpanOptions, type Tracer, type TracerOptions } from '@opentelemetry/api';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type NodeTracerConfig,
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
 *
 * With a parent-based sampler (the default, and every `parentbased_*`), the provider is one
 * that starts no span below a dropped one (`SampledTreeTracerProvider`).
 */
export function startTraceExport(): { shutdown: () => Promise<void> } {
  const sampler = defaultSampler();
  const Provider = parentBased() ? SampledTreeTracerProvider : NodeTracerProvider;
  const provider = new Provider({
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

/** Does the sampler follow the parent (so a dropped parent's children are dropped)? */
export function parentBased(vars: Record<string, string | undefined> = process.env): boolean {
  const name = vars.OTEL_TRACES_SAMPLER?.trim();
  return !name || name.startsWith('parentbased_') || name === 'always_off';
}

/**
 * The SDK's provider, whose tracers start no span below a span the sampler dropped: with a
 * parent-based sampler such a span would be dropped too, and so would its children. Next
 * makes its spans for every request once a provider is registered (three for an API read,
 * about sixteen for a page); in the nine traces in ten that are dropped, each child would
 * still cost its ids, a sampling decision, a non-recording span and a context switch. Here
 * its work runs at once, with the dropped parent as its span (whose methods do nothing) and
 * the parent's context still active, so what it calls sees the same dropped trace. The
 * root, and every span of a kept trace, go to the SDK as they are.
 */
export class SampledTreeTracerProvider extends NodeTracerProvider {
  private readonly wrapped = new WeakMap<Tracer, Tracer>();

  constructor(config?: NodeTracerConfig) {
    super(config);
  }

  override getTracer(name: string, version?: string, options?: TracerOptions): Tracer {
    const tracer = super.getTracer(name, version, options);
    let wrapped = this.wrapped.get(tracer);
    if (!wrapped) this.wrapped.set(tracer, (wrapped = sampledTreeTracer(tracer)));
    return wrapped;
  }
}

/** The span in `ctx`, when the sampler dropped it: valid, not recording, not sampled. */
export function droppedParent(ctx: Context): Span | undefined {
  const span = trace.getSpan(ctx);
  if (!span || span.isRecording()) return undefined;
  const parent = span.spanContext();
  return (parent.traceFlags & TraceFlags.SAMPLED) === 0 && trace.isSpanContextValid(parent) ? span : undefined;
}

function sampledTreeTracer(tracer: Tracer): Tracer {
  const startActiveSpan = tracer.startActiveSpan.bind(tracer) as (...args: unknown[]) => unknown;
  return {
    startSpan(name: string, options?: SpanOptions, ctx: Context = context.active()): Span {
      return (!options?.root && droppedParent(ctx)) || tracer.startSpan(name, options, ctx);
    },
    // The API's overloads: (name, fn), (name, options, fn), (name, options, context, fn).
    startActiveSpan(name: string, ...args: unknown[]) {
      const fn = args[args.length - 1] as (span: Span) => unknown;
      const options = args.length > 1 ? (args[0] as SpanOptions | undefined) : undefined;
      const active = context.active();
      const ctx = args.length > 2 ? ((args[1] as Context | undefined) ?? active) : active;
      const dropped = options?.root ? undefined : droppedParent(ctx);
      if (!dropped) return startActiveSpan(name, ...args);
      return ctx === active ? fn(dropped) : context.with(ctx, fn, undefined, dropped);
    },
  } as Tracer;
}
