import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingHttpHeaders } from 'node:http';
import {
  context,
  createContextKey,
  ROOT_CONTEXT,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type ContextManager,
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
 * with this file's context manager (`SparseContextManager`) and the W3C trace-context
 * propagator; Next's own spans use it too. No resource detectors run: the service's name is
 * the resource.
 *
 * With a parent-based sampler (the default, and every `parentbased_*`), the provider is one
 * that starts no span below a dropped one (`SampledTreeTracerProvider`). With the default
 * sampler, each request's trace is also decided as it arrives, before Next's first span
 * (`decideRequest`, called by the server guard): a kept request runs in a context that says
 * so, a dropped one in none at all, and Next runs bare outside a kept one.
 */
export function startTraceExport(): {
  shutdown: () => Promise<void>;
  decideRequest?: (headers: IncomingHttpHeaders) => RunInTrace | undefined;
} {
  const sampler = defaultSampler();
  const Provider = parentBased() ? SampledTreeTracerProvider : NodeTracerProvider;
  const provider = new Provider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: env().OTEL_SERVICE_NAME }),
    // Only when it is ours to choose: a `sampler` key, even undefined, hides the SDK's own from the variables.
    ...(sampler ? { sampler } : {}),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register({ contextManager: new SparseContextManager() });
  const shutdown = () => provider.shutdown();
  if (!sampler) return { shutdown };
  showNextOnlyKeptTraces(provider);
  return { shutdown, decideRequest: requestDecision(sampler.share) };
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
export function defaultSampler(vars: Record<string, string | undefined> = process.env): (Sampler & { readonly share: number }) | undefined {
  if (vars.OTEL_TRACES_SAMPLER?.trim()) return undefined;
  const arg = Number(vars.OTEL_TRACES_SAMPLER_ARG?.trim() || Number.NaN);
  const share = arg >= 0 && arg <= 1 ? arg : DEFAULT_TRACE_RATIO;
  return Object.assign(new ParentBasedSampler({ root: new RequestRootSampler(new TraceIdRatioBasedSampler(share)) }), { share });
}

/** Marks the context of a request whose trace is kept (`requestDecision`). */
const KEPT = createContextKey('site-delivery: this request is traced');

/**
 * The roots' sampler under the default: a request's trace is decided when it arrives
 * (`requestDecision`, before Next sees it), and Next only makes spans in a request that
 * decision kept, so its span for the request is kept here. Any other root in such a request
 * is a piece of it that Next started outside its span for the request (the span of its
 * router's pipe of the answer, `start response`): not a trace of its own, dropped. A root
 * outside every request (a job's pass) is decided by the ratio.
 */
class RequestRootSampler implements Sampler {
  constructor(private readonly ratio: TraceIdRatioBasedSampler) {}

  shouldSample(ctx: Context, traceId: string, name: string, kind: SpanKind, attributes: Attributes): SamplingResult {
    if (attributes['next.span_type'] === 'BaseServer.handleRequest') return { decision: SamplingDecision.RECORD_AND_SAMPLED };
    if (ctx.getValue(KEPT) === true) return { decision: SamplingDecision.NOT_RECORD };
    return this.ratio.shouldSample(ctx, traceId);
  }

  toString(): string {
    return `RequestRootSampler{${this.ratio.toString()}}`;
  }
}

/** Runs a request's handling (Next's, from the server guard) in the trace decided for it. */
export type RunInTrace = <T>(work: () => T) => T;

/**
 * Decides a request's trace once, as it arrives (called by the server guard's hook on the
 * HTTP server, before Next): a runner that hands the request to Next in a context marked
 * as kept, or undefined for a dropped one, which Next then handles with no context of ours
 * at all. A caller's valid `traceparent` decides by its sampled flag; without one (or with
 * one that is not valid, which is removed) the ratio decides. In a kept request Next reads
 * the caller's `traceparent` itself and starts its span for the request below it, or as
 * the root (which `RequestRootSampler` keeps). Everything below follows by the parent
 * (Next's spans, the site-client's, the API's, the statements'): under no span, none of
 * ours is made (tracing.ts).
 *
 * Why nothing at all for a dropped request, rather than a context that says "dropped": on
 * Node 20 every async resource a context switch reaches carries the store (see
 * `SparseContextManager`); nine requests in ten then carry none.
 */
function requestDecision(share: number): (headers: IncomingHttpHeaders) => RunInTrace | undefined {
  const kept = ROOT_CONTEXT.setValue(KEPT, true);
  const inKeptTrace: RunInTrace = (work) => context.with(kept, work);
  return (headers) => {
    const caller = headers.traceparent;
    if (typeof caller === 'string' && TRACEPARENT.test(caller)) {
      return (Number.parseInt(caller.slice(-2), 16) & TraceFlags.SAMPLED) === TraceFlags.SAMPLED ? inKeptTrace : undefined;
    }
    delete headers.traceparent;
    delete headers.tracestate;
    // The same odds as the ratio sampler's test of a random trace id, without making one:
    // the trace's id is Next's to make, for a kept request only.
    return Math.random() < share ? inKeptTrace : undefined;
  };
}

const TRACEPARENT = /^(?!ff)[\da-f]{2}-(?!0{32})[\da-f]{32}-(?!0{16})[\da-f]{16}-[\da-f]{2}$/;

/**
 * Next wraps its own work in spans whenever a tracer provider is registered: per span, a
 * context switch, option and attribute copies and three more promises, even when the trace
 * is dropped and the span is never made; and it reads the request's `traceparent` into a
 * context of its own. Its only test of whether tracing is on (`isOpenTelemetryEnabled` in
 * next/dist/server/lib/trace/tracer.js) is a recording active span, or else the registered
 * provider's class name not being `NoopTracerProvider`. So outside a request the server
 * guard handed over as kept (`requestDecision`), the provider names itself that, and Next
 * runs its work bare; inside one, and below any recording span, it is itself.
 */
function showNextOnlyKeptTraces(provider: NodeTracerProvider): void {
  const own = provider.constructor;
  const noop = { name: 'NoopTracerProvider' };
  Object.defineProperty(provider, 'constructor', {
    configurable: true,
    get: () => (context.active().getValue(KEPT) === true ? own : noop),
  });
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

/**
 * Node 20's AsyncLocalStorage copies each enabled store onto every async resource made (each
 * promise, timer, socket), `undefined` included: one more property added to each of a
 * request's ~200 promises (of many shapes, so V8 cannot specialise the store), and more for
 * the collector to scan. This one writes only a store there is: a resource made outside any
 * context (a request whose trace is dropped, `requestDecision`) stays as it was. `getStore`
 * answers the same either way (a missing property reads as undefined). Node's async context
 * frames (the default from Node 24) do not call this at all; there it is unused.
 */
class SparseStorage<T> extends AsyncLocalStorage<T> {
  _propagate(resource: Record<symbol, unknown>, trigger: Record<symbol, unknown>): void {
    const key = (this as unknown as { kResourceStore: symbol }).kResourceStore;
    const store = trigger[key];
    if (store !== undefined) resource[key] = store;
  }
}

/**
 * The SDK's context manager, as its AsyncLocalStorage one does it, over a `SparseStorage`.
 * `bind` takes functions (what Next binds); anything else is returned as it is: nothing in
 * this server binds an event emitter.
 */
export class SparseContextManager implements ContextManager {
  private readonly storage = new SparseStorage<Context>();

  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.storage.run(ctx, thisArg == null ? fn : fn.bind(thisArg), ...args);
  }

  bind<T>(ctx: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const fn = target as (...args: unknown[]) => unknown;
    const run = <R>(work: () => R): R => this.with(ctx, work);
    return function (this: unknown, ...args: unknown[]) {
      return run(() => fn.apply(this, args));
    } as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.storage.disable();
    return this;
  }
}
