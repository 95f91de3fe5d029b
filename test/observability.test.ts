import { executionAsyncResource } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Writable } from 'node:stream';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { context, createContextKey, propagation, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  ParentBasedSampler,
  SamplingDecision,
  SimpleSpanProcessor,
  type Sampler,
} from '@opentelemetry/sdk-trace-base';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { DomainError } from '@/lib/platform/errors';
import { waitFor } from './support/smtp';
import { processSlot } from '@/lib/process-state';
import { closeDatabase } from '@/db';
import { batchedStdout, LINE_BATCH_BYTES, loggerOptions } from '@/lib/platform/observability/logger';

// Structured request logs, metrics and statement spans (#46), without a server: the route
// wrapper with a made-up operation, a credential that is accepted, and the log captured.
vi.mock('server-only', () => ({}));
const CREDENTIAL = 'sk_test_observability_credential_0123456789';
vi.mock('@/lib/platform/auth/http', () => ({
  authenticate: async (req: Request) => {
    if (req.headers.get('authorization') !== `Bearer ${CREDENTIAL}`) throw new DomainError('unauthorized', 'no');
    return { credentialId: 'cred_1', scope: 'core', site: { id: 'site_obs', catalogVersion: 1 } };
  },
}));
vi.mock('@/lib/platform/rate-limit/http', () => ({ applyRateLimit: async () => ({}) }));

const ROOT = new URL('..', import.meta.url).pathname;
const lines: Array<Record<string, unknown>> = [];
let raw = '';

beforeAll(() => {
  vi.stubEnv('METRICS_TOKEN', 'metrics-token-for-the-unit-test');
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      raw += chunk.toString();
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  // The logger the server makes, with its options, writing here instead of stdout.
  processSlot<{ logger?: unknown }>('logger', () => ({})).logger = pino(loggerOptions(), sink);
});

afterAll(() => vi.unstubAllEnvs());

const operation = {
  operationId: 'getWidget',
  method: 'get',
  path: '/widgets/{id}',
  scope: 'core',
  params: z.object({ id: z.string() }),
} as const;

async function handlerFor(work: (id: string) => unknown) {
  const { route } = await import('@/lib/api/route');
  const { ok } = await import('@/lib/api/reply');
  return route(operation, async ({ params }) => ok(work(params.id) as object));
}

const call = (
  handler: Awaited<ReturnType<typeof handlerFor>>,
  id: string,
  headers: Record<string, string> = { Authorization: `Bearer ${CREDENTIAL}` },
) => handler(new Request(`http://shop.test/site/v1/widgets/${id}`, { headers }), { params: Promise.resolve({ id }) });

describe('one log line per request', () => {
  it('names the request id, method, route template, status, duration and Site; never the credential or the raw path', async () => {
    const handler = await handlerFor((id) => ({ id }));
    const res = await call(handler, 'secret-looking-id', { Authorization: `Bearer ${CREDENTIAL}`, 'X-Request-Id': 'req_obs_1234' });
    expect(res.status).toBe(200);
    const line = lines.find((l) => l.requestId === 'req_obs_1234')!;
    expect(line).toMatchObject({
      level: 'info',
      msg: 'request',
      method: 'GET',
      route: '/site/v1/widgets/{id}',
      status: 200,
      siteId: 'site_obs',
    });
    expect(typeof line.durationMs).toBe('number');
    expect(typeof line.time).toBe('string');
    expect(raw).not.toContain(CREDENTIAL);
    expect(raw).not.toContain('secret-looking-id');
  });

  it('a refused request has its line too, without a Site', async () => {
    const handler = await handlerFor((id) => ({ id }));
    const res = await call(handler, 'x', { 'X-Request-Id': 'req_obs_refused', Authorization: 'Bearer wrong-credential-value' });
    expect(res.status).toBe(401);
    const line = lines.find((l) => l.requestId === 'req_obs_refused')!;
    expect(line).toMatchObject({ level: 'info', status: 401, route: '/site/v1/widgets/{id}' });
    expect(line.siteId).toBeUndefined();
    expect(raw).not.toContain('wrong-credential-value');
  });

  it('a failure carries its stack in the request’s line, and nowhere else (not in the answer, not in a line of its own)', async () => {
    const handler = await handlerFor(() => {
      throw new Error('the widget store fell over');
    });
    const before = lines.length;
    const res = await call(handler, 'w1', { Authorization: `Bearer ${CREDENTIAL}`, 'X-Request-Id': 'req_obs_boom' });
    expect(res.status).toBe(500);
    const body = await res.text();
    expect(body).not.toMatch(/fell over|\bat .+:\d+:\d+/);
    const written = lines.slice(before);
    expect(written).toHaveLength(1);
    const [line] = written as [Record<string, unknown> & { err: { stack: string; message: string } }];
    expect(line).toMatchObject({ level: 'error', requestId: 'req_obs_boom', status: 500, route: '/site/v1/widgets/{id}' });
    expect(line.err.message).toBe('the widget store fell over');
    expect(line.err.stack).toMatch(/observability\.test\.ts/);
  });
});

describe('log lines on stdout, in batches', () => {
  const logFile = () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sd-log-')), 'out.log');
    return {
      path,
      fd: openSync(path, 'a'),
      written: () =>
        readFileSync(path, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l).n as number),
    };
  };

  it('holds info lines back; a warning goes out at once with every line before it; the rest within the flush interval', async () => {
    const { fd, written } = logFile();
    const out = batchedStdout(fd);
    const log = pino(loggerOptions(), out);
    log.info({ n: 1 }, 'one');
    log.info({ n: 2 }, 'two');
    expect(written()).toEqual([]);
    log.warn({ n: 3 }, 'three');
    expect(written()).toEqual([1, 2, 3]);
    log.info({ n: 4 }, 'four');
    expect(written()).toEqual([1, 2, 3]);
    await waitFor(() => (written().length === 4 ? true : undefined), 'the held line, written by the timer');
    expect(written()).toEqual([1, 2, 3, 4]);
    log.info({ n: 5 }, 'five');
    out.end();
    expect(written()).toEqual([1, 2, 3, 4, 5]);
  });

  it('writes the lines still held when the process exits', () => {
    const logger = pathToFileURL(join(ROOT, 'lib', 'platform', 'observability', 'logger.ts')).href;
    const script = `const { logger } = await import(${JSON.stringify(logger)}); logger().info({ n: 1 }, 'held'); process.exit(0);`;
    const child = spawnSync(
      process.execPath,
      ['--import', pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href, '--input-type=module', '-e', script],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', TSX_TSCONFIG_PATH: join(ROOT, 'tsconfig.json') },
        timeout: 60_000,
      },
    );
    expect(child.status).toBe(0);
    expect(
      child.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    ).toEqual([expect.objectContaining({ level: 'info', n: 1, msg: 'held' })]);
  });

  it('writes a batch as soon as its bytes are there', () => {
    const { path, fd, written } = logFile();
    const out = batchedStdout(fd);
    const log = pino(loggerOptions(), out);
    let n = 0;
    while (written().length === 0 && n < 1000) log.info({ n: ++n, filler: 'x'.repeat(500) }, 'filler');
    // Every line so far, written by the line that brought the batch to its size.
    expect(written()).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    const text = readFileSync(path, 'utf8');
    const last = text.slice(text.lastIndexOf('\n', text.length - 2) + 1);
    expect(Buffer.byteLength(text)).toBeGreaterThanOrEqual(LINE_BATCH_BYTES);
    expect(Buffer.byteLength(text) - Buffer.byteLength(last)).toBeLessThan(LINE_BATCH_BYTES);
    out.end();
  });
});

describe('metrics', () => {
  it('counts requests per route template and status, cache lookups, refusals, database faults and the outbox', async () => {
    const { metricsText, recordRateLimited } = await import('@/lib/platform/observability/metrics');
    const { BoundedCache } = await import('@/lib/platform/cache/memo');
    const cache = new BoundedCache<string>(10, 1024, 8, 'unit-test-cache');
    cache.set('a', 'x', 10);
    cache.get('a');
    cache.get('a');
    cache.get('b');
    recordRateLimited('reads');
    const { toProblem } = await import('@/lib/api/route');
    toProblem(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }), 'req_busy', {}, { error: undefined });
    const { text, contentType } = await metricsText(async () => ({ depth: 3, oldestAgeSeconds: 42.5 }));
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(text).toMatch(/^site_http_requests_total\{route="\/site\/v1\/widgets\/\{id\}",method="GET",status="200"\} [1-9]/m);
    expect(text).toMatch(/^site_http_requests_total\{route="\/site\/v1\/widgets\/\{id\}",method="GET",status="500"\} 1$/m);
    expect(text).toMatch(
      /^site_http_request_duration_seconds_bucket\{le="\+Inf",route="\/site\/v1\/widgets\/\{id\}",method="GET",status="500"\} 1$/m,
    );
    expect(text).toMatch(/^site_cache_lookups_total\{cache="unit-test-cache",result="hit"\} 2$/m);
    expect(text).toMatch(/^site_cache_lookups_total\{cache="unit-test-cache",result="miss"\} 1$/m);
    expect(text).toMatch(/^site_rate_limit_refusals_total\{policy="reads"\} 1$/m);
    expect(text).toMatch(/^site_database_unavailable_total\{fault="busy"\} 1$/m);
    expect(text).toMatch(/^site_outbox_depth 3$/m);
    expect(text).toMatch(/^site_outbox_oldest_age_seconds 42\.5$/m);
    // the raw path never becomes a label
    expect(text).not.toContain('secret-looking-id');
  });
});

/** Runs `work` with `provider` as the global tracer and spans carried by async context; both undone after. */
async function withTracer(provider: BasicTracerProvider, work: () => Promise<void>): Promise<void> {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  try {
    await work();
  } finally {
    trace.disable();
    context.disable();
  }
}

describe('statement spans', () => {
  it('each statement is a child span of the active one: db.system, the statement’s text without its values', async () => {
    const exporter = new InMemorySpanExporter();
    await withTracer(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }), async () => {
      const { openDatabase, readTransaction } = await import('@/db/client');
      const { sql } = await import('drizzle-orm');
      const dir = mkdtempSync(join(tmpdir(), 'sd-obs-'));
      const database = openDatabase({ url: `file:${join(dir, 'spans.db')}`, traced: true });
      const secret = 'value-that-must-not-show';
      await trace.getTracer('test').startActiveSpan('parent', async (parent) => {
        await database.run(sql`CREATE TABLE t (v TEXT)`);
        await database.run(sql`INSERT INTO t (v) VALUES (${secret})`);
        await readTransaction(database, (tx) => tx.all(sql`SELECT v FROM t WHERE v = ${secret}`));
        parent.end();
      });
      const spans = exporter.getFinishedSpans();
      const parent = spans.find((s) => s.name === 'parent')!;
      const statements = spans.filter((s) => s.attributes['db.system'] === 'sqlite');
      expect(statements.map((s) => s.name)).toEqual(expect.arrayContaining(['CREATE', 'INSERT', 'SELECT']));
      for (const span of statements) {
        expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
        expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
        expect(String(span.attributes['db.statement'])).not.toContain(secret);
      }
      expect(statements.find((s) => s.name === 'INSERT')!.attributes['db.statement']).toMatch(/values \(\?\)/i);
      closeDatabase(database);
    });
  });
});

describe('a trace the sampler drops', () => {
  it('makes none of our spans below it, nor below no span at all, and the work still runs; a kept one gets its whole tree', async () => {
    const exporter = new InMemorySpanExporter();
    // The SDK's default sampler (parent-based), as the server's.
    await withTracer(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }), async () => {
      const { inSpan } = await import('@/lib/platform/observability/tracing');
      const { openDatabase } = await import('@/db/client');
      const { sql } = await import('drizzle-orm');
      const database = openDatabase({ url: `file:${join(mkdtempSync(join(tmpdir(), 'sd-obs-')), 'dropped.db')}`, traced: true });
      await database.run(sql`CREATE TABLE t (v TEXT)`);
      const caller = (sampled: boolean) =>
        trace.setSpanContext(ROOT_CONTEXT, {
          traceId: randomBytes(16).toString('hex'),
          spanId: randomBytes(8).toString('hex'),
          traceFlags: sampled ? 1 : 0,
          isRemote: true,
        });
      const operation = (parent: ReturnType<typeof caller>) =>
        inSpan('getWidget', { parent }, async (span) => {
          span.setAttribute('site.id', 'site_obs');
          await database.run(sql`INSERT INTO t (v) VALUES ('a')`);
          return (await database.all<{ n: number }>(sql`SELECT count(*) AS n FROM t`))[0]!.n;
        });
      exporter.reset();
      expect(await operation(caller(false))).toBe(1);
      expect(exporter.getFinishedSpans()).toEqual([]);
      // No span at all (a request whose trace was dropped as it arrived): none either.
      expect(await operation(ROOT_CONTEXT)).toBe(2);
      expect(await database.all(sql`SELECT 1`)).toHaveLength(1);
      expect(exporter.getFinishedSpans()).toEqual([]);
      // A job's pass starts a trace of its own, whatever is active.
      await context.with(caller(false), () =>
        inSpan('job sweep', { root: true }, async () => (await database.all<{ n: number }>(sql`SELECT count(*) AS n FROM t`))[0]!.n),
      );
      const job = exporter.getFinishedSpans().find((s) => s.name === 'job sweep')!;
      expect(job.parentSpanContext).toBeUndefined();
      expect(exporter.getFinishedSpans().find((s) => s.name === 'SELECT')?.parentSpanContext?.spanId).toBe(job.spanContext().spanId);
      exporter.reset();
      const kept = caller(true);
      expect(await operation(kept)).toBe(3);
      const spans = exporter.getFinishedSpans();
      const api = spans.find((s) => s.name === 'getWidget')!;
      expect(api.parentSpanContext?.spanId).toBe(trace.getSpanContext(kept)!.spanId);
      expect(spans.filter((s) => s.parentSpanContext?.spanId === api.spanContext().spanId).map((s) => s.name)).toEqual([
        'INSERT',
        'SELECT',
      ]);
      closeDatabase(database);
    });
  });
});

describe('the server’s provider, under a trace the sampler dropped', () => {
  // The root's decision by its name, so that the test says which trace is kept.
  const byName: Sampler = {
    shouldSample: (_ctx, _traceId, name) => ({
      decision: name.startsWith('kept') ? SamplingDecision.RECORD_AND_SAMPLED : SamplingDecision.NOT_RECORD,
    }),
    toString: () => 'by name',
  };

  it('starts no span below a dropped one (its work runs, in the dropped context); a kept trace gets every span', async () => {
    const contextManager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(contextManager);
    const exporter = new InMemorySpanExporter();
    const { SampledTreeTracerProvider } = await import('@/lib/platform/observability/otel-sdk');
    const provider = new SampledTreeTracerProvider({
      sampler: new ParentBasedSampler({ root: byName }),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    trace.setGlobalTracerProvider(provider);
    try {
      const tracer = trace.getTracer('test');
      const { tracedCall } = await import('@/lib/site-client/trace');
      const tree = (rootName: string) =>
        tracer.startActiveSpan(rootName, async (root) => {
          const seen: Array<{ span: unknown; active: unknown }> = [];
          await tracer.startActiveSpan('child', async (child) => {
            seen.push({ span: child, active: trace.getSpan(context.active()) });
            await new Promise((resolve) => setImmediate(resolve));
            const leaf = tracer.startSpan('leaf');
            seen.push({ span: leaf, active: trace.getSpan(context.active()) });
            leaf.end();
            await tracedCall('getWidget', 'GET', async () => seen.push({ span: undefined, active: trace.getSpan(context.active()) }));
            child.end();
          });
          // A context given explicitly is the one the work runs in.
          const rootContext = context.active();
          await context.with(ROOT_CONTEXT, () =>
            tracer.startActiveSpan('explicit', {}, rootContext, async (span) => {
              seen.push({ span, active: trace.getSpan(context.active()) });
              span.end();
            }),
          );
          root.end();
          return { root, seen };
        });

      const dropped = await tree('dropped');
      expect(dropped.root.isRecording()).toBe(false);
      expect(dropped.seen).toHaveLength(4);
      for (const { span, active } of dropped.seen) {
        if (span !== undefined) expect(span).toBe(dropped.root);
        expect(active).toBe(dropped.root);
      }
      // A new root is decided anew, not taken for a child.
      const again = tracer.startSpan('kept again', { root: true }, trace.setSpan(ROOT_CONTEXT, dropped.root));
      expect(again.isRecording()).toBe(true);
      again.end();
      exporter.reset();

      const kept = await tree('kept');
      const spans = exporter.getFinishedSpans();
      const rootId = kept.root.spanContext().spanId;
      const byName = (name: string) => spans.find((s) => s.name === name)!;
      expect(spans.map((s) => s.name).sort()).toEqual(['child', 'explicit', 'kept', 'leaf', 'site-client getWidget']);
      expect(byName('child').parentSpanContext?.spanId).toBe(rootId);
      expect(byName('explicit').parentSpanContext?.spanId).toBe(rootId);
      expect(byName('leaf').parentSpanContext?.spanId).toBe(byName('child').spanContext().spanId);
      expect(byName('site-client getWidget').parentSpanContext?.spanId).toBe(byName('child').spanContext().spanId);
    } finally {
      await provider.shutdown();
      trace.disable();
      context.disable();
    }
  });

  it('is the server’s only with a parent-based sampler: unset, parentbased_*, always_off', async () => {
    const { parentBased } = await import('@/lib/platform/observability/otel-sdk');
    expect(parentBased({})).toBe(true);
    expect(parentBased({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio' })).toBe(true);
    expect(parentBased({ OTEL_TRACES_SAMPLER: 'always_off' })).toBe(true);
    // Not following the parent: a child of a dropped span may be kept, so its span is made.
    expect(parentBased({ OTEL_TRACES_SAMPLER: 'traceidratio' })).toBe(false);
    expect(parentBased({ OTEL_TRACES_SAMPLER: 'always_on' })).toBe(false);
  });
});

describe('the server’s default: a request’s trace decided as it arrives', () => {
  // The SDK as the server starts it (one OTLP receiver that answers every export), with the
  // ratio at 0 or 1 so that the test says which requests are kept, and Next's own tracer.
  const started = async (ratio: string) => {
    const receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end('{}')));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as AddressInfo;
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', `http://127.0.0.1:${port}`);
    vi.stubEnv('OTEL_TRACES_SAMPLER', '');
    vi.stubEnv('OTEL_TRACES_SAMPLER_ARG', ratio);
    const { startTraceExport } = await import('@/lib/platform/observability/otel-sdk');
    const sdk = startTraceExport();
    const stop = async () => {
      await sdk.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
      vi.unstubAllEnvs();
      await new Promise((resolve) => receiver.close(resolve));
    };
    return { decide: sdk.decideRequest!, stop };
  };
  // What Next does with a request: the trace context of its headers, then its span for it and one below.
  const nextRequest = async (headers: Record<string, string | string[] | undefined>) => {
    const { getTracer } = await import('next/dist/server/lib/trace/tracer');
    const next = getTracer();
    return next.withPropagatedContext(headers, () =>
      next.trace('BaseServer.handleRequest', { spanName: 'GET' }, async (span) => {
        const inner = await next.trace('Middleware.execute', async (child) => ({ child, active: trace.getSpan(context.active()) }));
        return { span, ...inner, nextTracing: next.isOpenTelemetryEnabled() };
      }),
    );
  };

  it('dropped: no context at all, so Next’s work runs bare and none of our spans is made', async () => {
    const { decide, stop } = await started('0');
    try {
      const headers: Record<string, string | string[] | undefined> = { tracestate: 'x=1' };
      expect(decide(headers)).toBeUndefined();
      expect(headers).toEqual({});
      const seen = await nextRequest(headers);
      expect(seen.span).toBeUndefined();
      expect(seen.child).toBeUndefined();
      expect(seen.nextTracing).toBe(false);
      expect(seen.active).toBeUndefined();
      const { inSpan } = await import('@/lib/platform/observability/tracing');
      expect(await inSpan('getWidget', {}, async (span) => span.isRecording())).toBe(false);
      // The shop's calls from such a page: over HTTP they say "not sampled", in process nothing.
      const { injectTraceHeaders } = await import('@/lib/site-client/trace');
      const overHttp: Record<string, string> = {};
      injectTraceHeaders(overHttp, true);
      expect(overHttp.traceparent).toMatch(/^00-[\da-f]{32}-[\da-f]{16}-00$/);
      const inProcess: Record<string, string> = {};
      injectTraceHeaders(inProcess, false);
      expect(inProcess).toEqual({});
      // A caller's traceparent decides by its flag and is left as it came; one that is no traceparent goes.
      const sampled = `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`;
      const followed: Record<string, string | undefined> = { traceparent: sampled, tracestate: 'x=1' };
      expect(decide(followed)).toBeTypeOf('function');
      expect(followed).toEqual({ traceparent: sampled, tracestate: 'x=1' });
      const unsampled: Record<string, string | undefined> = { traceparent: sampled.replace(/01$/, '00') };
      expect(decide(unsampled)).toBeUndefined();
      expect(unsampled.traceparent).toBe(sampled.replace(/01$/, '00'));
      const garbage: Record<string, string | undefined> = { traceparent: `00-${'0'.repeat(32)}-${'cd'.repeat(8)}-01` };
      expect(decide(garbage)).toBeUndefined();
      expect(garbage.traceparent).toBeUndefined();
    } finally {
      await stop();
    }
  });

  it('keeps the share of requests OTEL_TRACES_SAMPLER_ARG says, each decided as it arrives', async () => {
    const { decide, stop } = await started('0.1');
    try {
      let kept = 0;
      for (let i = 0; i < 2000; i++) if (decide({})) kept++;
      expect(kept / 2000).toBeGreaterThan(0.06);
      expect(kept / 2000).toBeLessThan(0.14);
    } finally {
      await stop();
    }
  });

  it('kept: handed over in a context that says so, and Next’s span for the request is the root of a whole tree', async () => {
    const { decide, stop } = await started('1');
    try {
      const headers: Record<string, string | string[] | undefined> = { traceparent: 'not one', tracestate: 'x=1' };
      const handOver = decide(headers)!;
      expect(headers).toEqual({});
      const seen = await handOver(() => nextRequest(headers));
      // Both made and sampled (they have ended by now), the second one below the first.
      expect(seen.span?.spanContext().traceFlags).toBe(1);
      expect(seen.child?.spanContext().traceFlags).toBe(1);
      expect(seen.active).toBe(seen.child);
      expect((seen.child as unknown as { parentSpanContext?: { spanId: string } }).parentSpanContext?.spanId).toBe(
        seen.span?.spanContext().spanId,
      );
      expect(seen.nextTracing).toBe(true);
      // A root Next starts in a kept request outside its span for it (its router's pipe of the
      // answer) is a piece of that request, not a trace; one outside every request (a job's) is.
      const piece = handOver(() =>
        trace.getTracer('next.js').startSpan('start response', { attributes: { 'next.span_type': 'NextNodeServer.startResponse' } }),
      );
      expect(piece.isRecording()).toBe(false);
      const job = trace.getTracer('site-delivery').startSpan('job sweep');
      expect(job.isRecording()).toBe(true);
      job.end();
      // Outside a kept request Next sees no provider, and makes nothing.
      const { getTracer } = await import('next/dist/server/lib/trace/tracer');
      expect(getTracer().isOpenTelemetryEnabled()).toBe(false);
      expect((await nextRequest({})).span).toBeUndefined();
    } finally {
      await stop();
    }
  });
});

describe('the server’s context manager', () => {
  it('carries a context across awaits, timers and bound callbacks; a promise made outside every context carries none', async () => {
    const { SparseContextManager } = await import('@/lib/platform/observability/otel-sdk');
    const manager = new SparseContextManager().enable();
    const key = createContextKey('test');
    const ctx = ROOT_CONTEXT.setValue(key, 'a');
    const value = () => manager.active().getValue(key);
    const bound = manager.bind(ctx, value);
    const seen = await manager.with(ctx, async () => {
      await Promise.resolve();
      const inTimer = await new Promise((resolve) => setTimeout(() => resolve(value()), 1));
      const inImmediate = await new Promise((resolve) => setImmediate(() => resolve(value())));
      const nested = manager.with(ROOT_CONTEXT.setValue(key, 'b'), value);
      return { afterAwait: value(), inTimer, inImmediate, nested, afterNested: value() };
    });
    expect(seen).toEqual({ afterAwait: 'a', inTimer: 'a', inImmediate: 'a', nested: 'b', afterNested: 'a' });
    expect(manager.active()).toBe(ROOT_CONTEXT);
    expect(bound()).toBe('a');
    // Two at once, their awaits interleaved, each keeps its own.
    const both = await Promise.all(
      ['x', 'y'].map((v, i) =>
        manager.with(ROOT_CONTEXT.setValue(key, v), async () => {
          await new Promise((resolve) => setTimeout(resolve, 2 - i));
          await Promise.resolve();
          return value();
        }),
      ),
    );
    expect(both).toEqual(['x', 'y']);
    // The point of it: Node 20's AsyncLocalStorage would give the promise below one more
    // property (undefined) for its store; this one gives it none, and one within a context.
    const symbols = () => Object.getOwnPropertySymbols(executionAsyncResource()).length;
    const outside = await Promise.resolve().then(symbols);
    const inside = await manager.with(ctx, () => Promise.resolve().then(symbols));
    expect(inside).toBe(outside + 1);
    manager.disable();
  });
});

describe('db/ logs through the server’s logger', () => {
  it('a storage fault is one structured line once the server has handed db/ its logger; before that, plain stderr', async () => {
    const { setDatabaseLog } = await import('@/db/log');
    const { reportStorageFault, reportStorageRecovered } = await import('@/db/faults');
    const slot = processSlot<{ log?: unknown }>('databaseLog', () => ({}));
    const wired = slot.log;
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      slot.log = undefined;
      reportStorageFault('io', Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' }));
      expect(String(stderr.mock.calls.at(-1)?.[0])).toMatch(/^\[db\] storage fault \(io\)/);

      // What lib/server/start.ts does when the server starts.
      const { logger } = await import('@/lib/platform/observability/logger');
      setDatabaseLog((level, fields, message) => logger()[level](fields, message));
      const before = lines.length;
      const calls = stderr.mock.calls.length;
      reportStorageFault('full', Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }));
      const line = lines.slice(before).find((l) => l.fault === 'full');
      expect(line).toMatchObject({ level: 'error', fault: 'full', code: expect.stringMatching(/^SQLITE_FULL/) });
      expect(String(line?.msg)).toMatch(/^storage fault \(full\)/);
      expect(stderr.mock.calls.length).toBe(calls);
      // Cleared (a write that succeeds a while after the last failure): one line, through the logger too.
      vi.useFakeTimers({ now: Date.now() + 60_000 });
      reportStorageRecovered();
      vi.useRealTimers();
      expect(lines.slice(before).find((l) => l.fault === 'full' && l.level === 'warn')).toMatchObject({ failures: 1 });
    } finally {
      slot.log = wired;
      stderr.mockRestore();
    }
  });
});

describe('which traces are kept', () => {
  const sampled = (sampler: Sampler, parent?: { sampled: boolean }) => {
    let kept = 0;
    for (let i = 0; i < 2000; i++) {
      const traceId = randomBytes(16).toString('hex');
      const ctx = parent
        ? trace.setSpanContext(ROOT_CONTEXT, {
            traceId,
            spanId: randomBytes(8).toString('hex'),
            traceFlags: parent.sampled ? 1 : 0,
            isRemote: true,
          })
        : ROOT_CONTEXT;
      if (sampler.shouldSample(ctx, traceId, 'span', SpanKind.SERVER, {}, []).decision === SamplingDecision.RECORD_AND_SAMPLED) kept++;
    }
    return kept / 2000;
  };

  it('unset: one trace in ten, decided at the root; a sampled parent is followed, an unsampled one too', async () => {
    const { defaultSampler } = await import('@/lib/platform/observability/otel-sdk');
    const sampler = defaultSampler({})!;
    expect(sampled(sampler)).toBeGreaterThan(0.06);
    expect(sampled(sampler)).toBeLessThan(0.14);
    expect(sampled(sampler, { sampled: true })).toBe(1);
    expect(sampled(sampler, { sampled: false })).toBe(0);
    // OTEL_TRACES_SAMPLER_ARG alone sets the share.
    expect(sampled(defaultSampler({ OTEL_TRACES_SAMPLER_ARG: '1' })!)).toBe(1);
    expect(sampled(defaultSampler({ OTEL_TRACES_SAMPLER_ARG: '0' })!)).toBe(0);
    // Set, OTEL_TRACES_SAMPLER is the SDK's to read, as everywhere else.
    expect(defaultSampler({ OTEL_TRACES_SAMPLER: 'parentbased_always_on' })).toBeUndefined();
  });

  it('set, OTEL_TRACES_SAMPLER decides in the SDK the server starts', async () => {
    const { startTraceExport } = await import('@/lib/platform/observability/otel-sdk');
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'always_off');
    const started = startTraceExport();
    try {
      const span = trace.getTracer('test').startSpan('root');
      expect(span.isRecording()).toBe(false);
      span.end();
    } finally {
      vi.stubEnv('OTEL_TRACES_SAMPLER', '');
      await started.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    }
  });
});
