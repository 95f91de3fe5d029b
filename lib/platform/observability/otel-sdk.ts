import type { IncomingHttpHeaders } from 'node:http';
import {
  context,
  ROOT_CONTEXT,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Span,
  type SpanKind,
  type SpanOptions,
  type Tracer,
  type TracerOptions,
} from '@opentelemetry/api';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  RandomIdGenerator,
  SamplingDecision,
  TraceIdRatioBasedSampler,
  type NodeTracerConfig,
  type Sampler,
  type SamplingResult,
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
 * that starts no span below a dropped one (`SampledTreeTracerProvider`). With the default
 * sampler, each request's trace is also decided as it arrives, before Next's first span
 * (`decideRequest`, called by the server guard), and Next runs bare under a dropped one.
 */
export function startTraceExport(): { shutdown: () => Promise<void>; decideRequest?: (headers: IncomingHttpHeaders) => void } {
  const sampler = defaultSampler();
  const Provider = parentBased() ? SampledTreeTracerProvider : NodeTracerProvider;
  const provider = new Provider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: env().OTEL_SERVICE_NAME }),
    // Only when it is ours to choose: a `sampler` key, even undefined, hides the SDK's own from the variables.
    ...(sampler ? { sampler } : {}),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  const shutdown = () => provider.shutdown();
  if (!sampler) return { shutdown };
  hideDroppedTracesFromNext(provider);
  return { shutdown, decideRequest: requestDecision(sampler.ratio) };
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
export function defaultSampler(
  vars: Record<string, string | undefined> = process.env,
): (Sampler & { readonly ratio: TraceIdRatioBasedSampler }) | undefined {
  if (vars.OTEL_TRACES_SAMPLER?.trim()) return undefined;
  const arg = Number(vars.OTEL_TRACES_SAMPLER_ARG?.trim() || Number.NaN);
  const ratio = new TraceIdRatioBasedSampler(arg >= 0 && arg <= 1 ? arg : DEFAULT_TRACE_RATIO);
  return Object.assign(new ParentBasedSampler({ root: new RequestRootSampler(ratio) }), { ratio });
}

/**
 * The roots' sampler under the default: a request's trace is decided when it arrives
 * (`requestDecision`, before Next sees it), so Next's span for a request that comes without a
 * dropped parent is one that decision kept, and is kept here. Any other root (a job's pass,
 * mail) is decided by the ratio.
 */
class RequestRootSampler implements Sampler {
  constructor(private readonly ratio: TraceIdRatioBasedSampler) {}

  shouldSample(ctx: Context, traceId: string, name: string, kind: SpanKind, attributes: Attributes): SamplingResult {
    if (attributes['next.span_type'] === 'BaseServer.handleRequest') return { decision: SamplingDecision.RECORD_AND_SAMPLED };
    return this.ratio.shouldSample(ctx, traceId);
  }

  toString(): string {
    return `RequestRootSampler{${this.ratio.toString()}}`;
  }
}

/**
 * Decides a request's trace once, as it arrives (called by the server guard's hook on the
 * HTTP server, before Next): a request without a caller's `traceparent` that the ratio
 * drops gets one, for a made-up parent, not sampled. Every span below it is then dropped by
 * the parent-based sampler, through both of Next's passes over the request (its proxy's and
 * the render's, which read the same headers), so Next never starts one (see
 * `hideDroppedTracesFromNext`). A caller's valid `traceparent` is followed, as before.
 */
function requestDecision(ratio: TraceIdRatioBasedSampler): (headers: IncomingHttpHeaders) => void {
  const ids = new RandomIdGenerator();
  return (headers) => {
    if (typeof headers.traceparent === 'string' && TRACEPARENT.test(headers.traceparent)) return;
    const traceId = ids.generateTraceId();
    if (ratio.shouldSample(ROOT_CONTEXT, traceId).decision === SamplingDecision.RECORD_AND_SAMPLED) {
      delete headers.traceparent;
    } else {
      headers.traceparent = `00-${traceId}-${ids.generateSpanId()}-00`;
    }
    delete headers.tracestate;
  };
}

const TRACEPARENT = /^(?!ff)[\da-f]{2}-(?!0{32})[\da-f]{32}-(?!0{16})[\da-f]{16}-[\da-f]{2}$/;

/**
 * Next wraps its own work in spans whenever a tracer provider is registered: per span, a
 * context switch, option and attribute copies and three more promises, even when the trace
 * is dropped and the span is never made. Its only test of whether tracing is on
 * (`isOpenTelemetryEnabled` in next/dist/server/lib/trace/tracer.js) is a recording active
 * span, or else the registered provider's class name not being `NoopTracerProvider`. So
 * while the active span is one the sampler dropped, the provider names itself that, and
 * Next runs its work bare; in a kept trace, and with no span at all, it is itself. The
 * decision must then be taken before Next's first span (`requestDecision`): the `traceparent`
 * Next would write on a request for its second pass is not written under a dropped span.
 */
function hideDroppedTracesFromNext(provider: NodeTracerProvider): void {
  const own = provider.constructor;
  const noop = { name: 'NoopTracerProvider' };
  Object.defineProperty(provider, 'constructor', { configurable: true, get: () => (droppedParent(context.active()) ? noop : own) });
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
