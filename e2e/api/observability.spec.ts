// Logs, metrics and traces (#46) on an instance of their own (on a copy of the e2e database):
// its stdout read line by line, GET /metrics with METRICS_TOKEN, and an OTLP/HTTP receiver
// inside this test that gets its spans and checks that a storefront page, the API calls it
// makes and their statements form one tree.
import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '../support/request';
import { creds, V1 } from '../support/api';
import { copyDatabase, killInstance, mainDatabaseUrl, startInstance, type Instance } from '../support/instances';
import { waitFor } from '../support/mail';
import { consent, freshEmail, NEWSLETTER } from '../support/signups';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

const METRICS_TOKEN = 'metrics-token-for-the-e2e-instance';

test('on the shared server: no METRICS_TOKEN, so /metrics does not exist; never in the OpenAPI document', async ({ request }) => {
  const res = await request.get('/metrics', { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status()).toBe(404);
  expect(res.headers()['cache-control']).toBe('no-store');
  const openapi = (await (await request.get(`${V1}/openapi.json`)).json()) as { paths: Record<string, unknown> };
  expect(Object.keys(openapi.paths).filter((p) => /metrics|healthz|readyz/.test(p))).toEqual([]);
});

type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: { stringValue?: string; intValue?: string | number } }>;
};
const attr = (span: OtlpSpan, key: string) => {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : String(value.intValue));
};

/** An OTLP/HTTP trace receiver: POST /v1/traces with JSON (the exporter's default encoding). */
function otlpReceiver(): Promise<{ server: Server; url: string; spans: OtlpSpan[] }> {
  const spans: OtlpSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') return void res.writeHead(404).end();
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const payload = JSON.parse(body.toString('utf8')) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
      for (const r of payload.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, spans });
    }),
  );
}

test.describe('an instance with metrics, traces and its log read', () => {
  let instance: Instance;
  let receiver: Awaited<ReturnType<typeof otlpReceiver>>;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    receiver = await otlpReceiver();
    const dir = mkdtempSync(join(tmpdir(), 'sd-observability-e2e-'));
    const copy = await copyDatabase(mainDatabaseUrl(), join(dir, 'site.db'));
    instance = await startInstance(
      copy,
      {
        METRICS_TOKEN,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        // Spans go out every 100 ms instead of every 5 s.
        OTEL_BSP_SCHEDULE_DELAY: '100',
        // The default sampler (decided as a request arrives, before Next: docs/operating.md#traces)
        // at a share of 1, so the page's trace is there, kept the way one in ten is by default.
        OTEL_TRACES_SAMPLER_ARG: '1',
        SITE_API_CREDENTIAL: creds().storefront,
        PAGE_RENDER_AHEAD: 'off',
        MAIL_EML_DIR: join(dir, 'outbox'),
        LOG_LEVEL: 'info',
        // A small budget per shopper, so a refusal can be counted (the page's own reads stay far below it).
        RATE_LIMIT_READS_PER_SHOPPER: '20',
      },
      150_000,
    );
  });

  test.afterAll(async () => {
    if (instance) await killInstance(instance);
    receiver?.server.close();
  });

  /** The JSON lines the server wrote (Next's own start-up banner is plain text). */
  const jsonLines = () =>
    instance
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  test('one JSON line per request: request id, method, route template, status, duration, Site; no credential, address or body', async ({
    request,
  }) => {
    const handle = 'fjord-ceramic-mug';
    const read = await request.get(`${instance.baseURL}${V1}/commerce/products/${handle}`, {
      headers: { Authorization: `Bearer ${creds().core}`, 'X-Request-Id': 'req_log_read_0001' },
    });
    expect(read.status()).toBe(200);
    const email = freshEmail('observability');
    const signup = await request.post(`${instance.baseURL}${V1}${NEWSLETTER}`, {
      headers: {
        Authorization: `Bearer ${creds().core}`,
        'Content-Type': 'application/json',
        'X-Request-Id': 'req_log_signup_01',
        'Site-Buyer-IP': '198.51.100.77',
      },
      data: JSON.stringify({ email, consent, source: 'footer' }),
    });
    expect(signup.status()).toBe(202);
    const refused = await request.get(`${instance.baseURL}${V1}/commerce/products/${handle}`, {
      headers: { Authorization: 'Bearer sk_not_a_real_credential_at_all', 'X-Request-Id': 'req_log_refused_1' },
    });
    expect(refused.status()).toBe(401);

    const lineOf = (id: string) => waitFor(() => jsonLines().find((l) => l.requestId === id), `the log line of ${id}`);
    const readLine = await lineOf('req_log_read_0001');
    expect(readLine).toMatchObject({
      level: 'info',
      msg: 'request',
      method: 'GET',
      route: '/site/v1/commerce/products/{handle}',
      status: 200,
    });
    expect(typeof readLine.time).toBe('string');
    expect(typeof readLine.durationMs).toBe('number');
    expect(readLine.siteId).toEqual(expect.any(String));
    const signupLine = await lineOf('req_log_signup_01');
    expect(signupLine).toMatchObject({
      level: 'info',
      method: 'POST',
      route: '/site/v1/newsletter/subscriptions',
      status: 202,
      siteId: readLine.siteId,
    });
    const refusedLine = await lineOf('req_log_refused_1');
    expect(refusedLine).toMatchObject({ status: 401, route: '/site/v1/commerce/products/{handle}' });
    expect(refusedLine.siteId).toBeUndefined();

    const output = instance.output();
    for (const secret of [
      creds().core,
      creds().storefront,
      'sk_not_a_real_credential_at_all',
      email,
      '198.51.100.77',
      consent.text,
      `/products/${handle}`,
    ]) {
      expect(output, secret).not.toContain(secret);
    }
  });

  test('GET /metrics: Bearer METRICS_TOKEN only, Prometheus text, never cached or rate-limited', async ({ request }) => {
    // Reads refused by a shopper's budget: counted by policy. The budget's window is fixed, so
    // 25 reads may straddle its end and fit both halves; 45 in a row overfill one of them.
    const statuses: number[] = [];
    for (let i = 0; i < 45 && !statuses.includes(429); i++) {
      const res = await request.get(`${instance.baseURL}${V1}/site`, {
        headers: { Authorization: `Bearer ${creds().core}`, 'Site-Buyer-IP': '203.0.113.9' },
      });
      statuses.push(res.status());
    }
    expect(statuses).toContain(429);

    expect((await request.get(`${instance.baseURL}/metrics`)).status()).toBe(401);
    expect(
      (await request.get(`${instance.baseURL}/metrics`, { headers: { Authorization: 'Bearer wrong-token-of-some-length' } })).status(),
    ).toBe(401);
    const res = await request.get(`${instance.baseURL}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers()['cache-control']).toBe('no-store');
    const text = await res.text();
    expect(text).toMatch(
      /^site_http_requests_total\{route="\/site\/v1\/commerce\/products\/\{handle\}",method="GET",status="200"\} [1-9]\d*$/m,
    );
    expect(text).toMatch(
      /^site_http_request_duration_seconds_bucket\{le="0\.1",route="\/site\/v1\/site",method="GET",status="200"\} \d+$/m,
    );
    expect(text).toMatch(/^site_http_requests_total\{route="\/site\/v1\/site",method="GET",status="429"\} [1-9]\d*$/m);
    expect(text).toMatch(/^site_rate_limit_refusals_total\{policy="shopper-reads"\} [1-9]\d*$/m);
    expect(text).toMatch(/^site_cache_lookups_total\{cache="answers",result="(hit|miss)"\} \d+$/m);
    expect(text).toMatch(/^site_outbox_depth \d+$/m);
    expect(text).toMatch(/^site_outbox_oldest_age_seconds [\d.e+-]+$/m);
    expect(text).toMatch(/^site_database_unavailable_total\{fault="busy"\} \d+$/m);
    expect(text).toMatch(/^site_database_unavailable_total\{fault="unreachable"\} \d+$/m);
    expect(text).toMatch(/^site_process_resident_memory_bytes \d+/m);
    // No raw path, no credential among the labels.
    expect(text).not.toContain('fjord-ceramic-mug');
    expect(text).not.toContain(creds().core);
    // Never rate-limited: a scraper asking often is answered every time.
    const many = await Promise.all(
      Array.from({ length: 30 }, () =>
        request.get(`${instance.baseURL}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } }).then((r) => r.status()),
      ),
    );
    expect(new Set(many)).toEqual(new Set([200]));
  });

  test('a storefront page, the API calls it makes and their statements are one trace', async ({ request }) => {
    const page = await request.get(`${instance.baseURL}/`, { headers: { Accept: 'text/html' } });
    expect(page.status()).toBe(200);

    // The page's trace: the one whose API spans (named by operation id) hang below a site-client span.
    const trace = await waitFor(
      () => {
        const byTrace = new Map<string, OtlpSpan[]>();
        for (const s of receiver.spans) byTrace.set(s.traceId, [...(byTrace.get(s.traceId) ?? []), s]);
        for (const spans of byTrace.values()) {
          const api = spans.filter((s) => attr(s, 'http.route')?.startsWith('/site/v1/'));
          const clients = spans.filter((s) => s.name.startsWith('site-client '));
          const statements = spans.filter((s) => attr(s, 'db.system') === 'sqlite');
          // Complete: every span's parent has arrived too (a parent ends, and is sent, after its children).
          const ids = new Set(spans.map((s) => s.spanId));
          const complete = spans.every((s) => !s.parentSpanId || ids.has(s.parentSpanId));
          if (complete && api.length > 0 && clients.length >= api.length && statements.length > 0) return spans;
        }
        return undefined;
      },
      'the page’s trace at the receiver',
      30_000,
    );

    const byId = new Map(trace.map((s) => [s.spanId, s]));
    // One tree: one root, and every other span's parent is in the same trace.
    const roots = trace.filter((s) => !s.parentSpanId);
    expect(roots.map((r) => r.name)).toHaveLength(1);
    for (const s of trace) if (s.parentSpanId) expect(byId.has(s.parentSpanId), `${s.name}'s parent`).toBe(true);
    const root = roots[0]!;
    // The root is the page's request (Next's span for GET /), not an API call.
    expect(root.kind).toBe(2); // SERVER
    expect(attr(root, 'http.route') ?? '').not.toMatch(/^\/site\/v1/);
    const ancestors = (s: OtlpSpan): OtlpSpan[] =>
      s.parentSpanId ? [byId.get(s.parentSpanId)!, ...ancestors(byId.get(s.parentSpanId)!)] : [];

    const api = trace.filter((s) => attr(s, 'http.route')?.startsWith('/site/v1/'));
    for (const span of api) {
      // Named by the operation id, a server span, below the storefront's call of that operation.
      expect(span.name).toMatch(/^[a-z][A-Za-z]+$/);
      expect(span.kind).toBe(2);
      const caller = ancestors(span).find((a) => a.name.startsWith('site-client '));
      expect(caller?.name, span.name).toBe(`site-client ${span.name}`);
      expect(ancestors(span).at(-1)).toBe(root);
    }
    const statements = trace.filter((s) => attr(s, 'db.system') === 'sqlite');
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      // Each statement below an API call; its text without values (drizzle sends them apart).
      expect(
        ancestors(statement).some((a) => api.includes(a)),
        statement.name,
      ).toBe(true);
      expect(attr(statement, 'db.statement')).toBeTruthy();
      expect(attr(statement, 'db.statement')).not.toContain(creds().storefront);
    }
    expect(statements.some((s) => /\?/.test(attr(s, 'db.statement') ?? ''))).toBe(true);
  });

  test('an API request that comes with a traceparent continues that trace', async ({ request }) => {
    const traceId = 'aa'.repeat(16);
    const parentId = 'bb'.repeat(8);
    const res = await request.get(`${instance.baseURL}${V1}/commerce/products/fjord-ceramic-mug`, {
      headers: { Authorization: `Bearer ${creds().core}`, traceparent: `00-${traceId}-${parentId}-01` },
    });
    expect(res.status()).toBe(200);
    const span = await waitFor(
      () => receiver.spans.find((s) => s.traceId === traceId && s.name === 'getProduct'),
      'the API span of that trace',
      30_000,
    );
    expect(span.kind).toBe(2);
    expect(attr(span, 'http.route')).toBe('/site/v1/commerce/products/{handle}');
    // Its parent is the caller's span, or Next's own span for the request, which is the caller's child:
    // walk up (parents end, and arrive, after their children) until the caller's span id.
    const reachesCaller = () => {
      for (let at: OtlpSpan | undefined = span; at; at = receiver.spans.find((s) => s.spanId === at!.parentSpanId)) {
        if (at.parentSpanId === parentId) return true;
        if (at.traceId !== traceId) return false;
      }
      return undefined;
    };
    expect(await waitFor(reachesCaller, "the chain of parents up to the caller's span", 30_000)).toBe(true);
  });

  test('a caller’s traceparent that says “not sampled” is followed: no span of that request, and no trace is a fragment', async ({
    request,
  }) => {
    const dropped = 'cc'.repeat(16);
    const kept = 'dd'.repeat(16);
    const read = (traceId: string, flags: string) =>
      request.get(`${instance.baseURL}${V1}/commerce/products/fjord-ceramic-mug`, {
        headers: { Authorization: `Bearer ${creds().core}`, traceparent: `00-${traceId}-${'ee'.repeat(8)}-${flags}` },
      });
    expect((await read(dropped, '00')).status()).toBe(200);
    expect((await read(kept, '01')).status()).toBe(200);
    // Spans go out in the order they end: once the later request's are in, the earlier one's would be.
    await waitFor(() => receiver.spans.find((s) => s.traceId === kept && s.name === 'getProduct'), 'the kept request’s API span', 30_000);
    expect(receiver.spans.filter((s) => s.traceId === dropped)).toEqual([]);
    // Every trace starts at a request (Next's server span) or a job's pass: none is a lone
    // statement, API span or piece of Next's that lost its parent.
    const roots = receiver.spans.filter((s) => !s.parentSpanId);
    expect(roots.length).toBeGreaterThan(0);
    for (const root of roots) expect(root.kind === 2 || root.name.startsWith('job '), root.name).toBe(true);
  });
});
