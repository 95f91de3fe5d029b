import 'server-only';
import { randomBytes } from 'node:crypto';
import { context, propagation, SpanKind, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { env } from '@/lib/env';
import { processSlot } from '@/lib/process-state';

/**
 * The client's side of a trace (docs/operating.md#traces): each call to the API is a span
 * of the page that makes it, and carries its W3C traceparent, so the API's span, and its
 * statements', hang below it in one tree. Only when traces are exported
 * (OTEL_EXPORTER_OTLP_ENDPOINT); otherwise nothing is made or sent. Under a page's span the
 * sampler dropped, or none (a page whose trace was dropped as it arrived), no span is made
 * either (the samplers are parent-based, so it would be dropped too); the call still says
 * "not sampled" (injectTraceHeaders).
 */
const holder = processSlot<{ on?: boolean }>('siteClientTracing', () => ({}));

export function tracingCalls(): boolean {
  return (holder.on ??= Boolean(env().OTEL_EXPORTER_OTLP_ENDPOINT || env().OTEL_EXPORTER_OTLP_TRACES_ENDPOINT));
}

export function tracedCall<T>(operationId: string, method: string, work: () => Promise<T>): Promise<T> {
  const parent = trace.getSpanContext(context.active());
  if (!parent || (parent.traceFlags & TraceFlags.SAMPLED) === 0) return work();
  const attributes = { 'site.operation': operationId, 'http.request.method': method };
  return trace
    .getTracer('site-delivery')
    .startActiveSpan(`site-client ${operationId}`, { kind: SpanKind.CLIENT, attributes }, async (span) => {
      try {
        return await work();
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
        throw error;
      } finally {
        span.end();
      }
    });
}

/**
 * The call's W3C traceparent: its span's. With no span (a page whose trace the server
 * dropped as it arrived carries none: otel-sdk.ts), a call over HTTP says "not sampled", for
 * a parent that exists nowhere, so the server that answers it does not decide it anew and
 * keep one in ten of them as traces cut off from their pages; in process nothing is needed.
 */
export function injectTraceHeaders(headers: Record<string, string>, overHttp: boolean): void {
  const active = context.active();
  if (trace.getSpanContext(active)) propagation.inject(active, headers);
  else if (overHttp) {
    const ids = randomBytes(24).toString('hex');
    headers.traceparent = `00-${ids.slice(0, 32)}-${ids.slice(32)}-00`;
  }
}
