import { request as httpRequest, type RequestOptions } from 'node:http';
import { expect, test } from '@playwright/test';
import { Problem } from '@/lib/contract/common';
import { operations } from '@/lib/contract/operations';
import { auth, creds, V1 } from '../support/api';
import { postChunked, rssOf } from '../support/big-body';
import { type Instance, killInstance, mainDatabaseUrl, startInstance } from '../support/instances';

const BASE_URL = process.env.E2E_BASE_URL!;
const HUGE = 300 * 1024 * 1024;
/** Far less than a 300 MB body would take if it were read, more than a busy server's noise. */
const RSS_ALLOWANCE = 64 * 1024 * 1024;

type RawAnswer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** One request with node:http: fetch refuses TRACE, and hides nothing here (options.path sends any target as given). */
function send(url: string, options: RequestOptions): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, options, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const raw = (url: string, method: string, headers: Record<string, string> = {}) => send(url, { method, headers });

/** A request whose target is sent exactly as given (`*`, or an absolute URL). */
const rawTarget = (target: string, method: string) => send(BASE_URL, { method, path: target });

test('a target that is no path: OPTIONS * is 204, another method with * a 400, an absolute URL is served as its path', async () => {
  const options = await rawTarget('*', 'OPTIONS');
  expect(options.status).toBe(204);
  expect(String(options.headers.allow).split(', ')).toEqual(expect.arrayContaining(['GET', 'HEAD', 'POST', 'PATCH', 'OPTIONS']));
  for (const method of ['GET', 'POST', 'TRACE']) {
    const res = await rawTarget('*', method);
    expect(res.status, method).toBe(400);
    expect(res.body).not.toMatch(/TypeError|Invalid URL/);
  }
  // served as /site/v1/site: the credential is asked for, not a redirect to the named host
  const absolute = await rawTarget('http://elsewhere.example/site/v1/site', 'GET');
  expect(absolute.status).toBe(401);
  expect(absolute.headers.location).toBeUndefined();
  expect(Problem.parse(JSON.parse(absolute.body)).code).toBe('unauthorized');
});

test("the API's root and any path under it that names no operation: 404 problem+json, never the shop's page", async () => {
  for (const path of [V1, `${V1}/nope`, `${V1}/commerce`, `${V1}/commerce/products/x/y`]) {
    for (const method of ['GET', 'POST']) {
      const res = await raw(`${BASE_URL}${path}`, method, auth(creds().core));
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers['content-type'], path).toContain('application/problem+json');
      expect(Problem.parse(JSON.parse(res.body)).code).toBe('not_found');
    }
  }
});

// A body far larger than any limit, sent chunked (no Content-Length) to every kind of
// endpoint, on a server of our own so its memory can be read.
test.describe('bodies are cut off while they stream in', () => {
  test.describe.configure({ mode: 'serial', timeout: 180_000 });
  let server: Instance;
  test.beforeAll(async () => {
    // Rendering pages ahead would grow the heap meanwhile, whatever the requests did.
    server = await startInstance(mainDatabaseUrl(), { SITE_API_CREDENTIAL: creds().storefront, PAGE_RENDER_AHEAD: 'off' });
  });
  test.afterAll(async () => {
    if (server) await killInstance(server);
  });

  async function expectCutOff(path: string, headers: Record<string, string>, status: number, prefix?: string) {
    const pid = server.child.pid!;
    // The first request to a route loads its code (up to ~5 MB of RSS): cut off a smaller
    // body first, so what is measured below is only what the huge one costs.
    const warm = await postChunked(`${server.baseURL}${path}`, headers, 4 * 1024 * 1024, prefix);
    expect(warm, `${path} (4 MB): ${JSON.stringify(warm)}`).toMatchObject({ status, error: null });
    const before = rssOf(pid);
    const answer = await postChunked(`${server.baseURL}${path}`, headers, HUGE, prefix);
    expect(answer, `${path}: ${JSON.stringify(answer)}`).toMatchObject({ status, error: null });
    // Answered long before the body could have been read: what was sent is what sits in
    // the sockets' buffers, not the 300 MB.
    expect(answer.sent).toBeLessThan(HUGE / 4);
    expect(rssOf(pid) - before).toBeLessThan(RSS_ALLOWANCE);
    // Still up, and still answering.
    expect((await fetch(`${server.baseURL}${V1}/openapi.json`)).status).toBe(200);
  }

  test('the shop’s analytics endpoint: 413, however the sender claims to be the shop', async () => {
    await expectCutOff('/shop-api/events', { Origin: server.baseURL, 'Content-Type': 'application/json' }, 413, '{"events":[');
  });

  test('the shop’s cart endpoints: 413', async () => {
    for (const path of ['/shop-api/cart/items', '/shop-api/cart/bundles']) {
      await expectCutOff(
        path,
        { Origin: server.baseURL, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        413,
        'variantId=',
      );
    }
  });

  test('an API write: 413 problem+json', async () => {
    await expectCutOff(
      `${V1}/commerce/checkout-sessions`,
      auth(creds().extended, { 'Content-Type': 'application/json' }),
      413,
      '{"lines":[',
    );
    await expectCutOff(`${V1}/analytics/events`, auth(creds().extended, { 'Content-Type': 'application/json' }), 413, '{"events":[');
  });

  test('a body sent to a percent-encoded API path: never copied for the proxy', async () => {
    // A valid encoding names no operation (Next matches the path as sent): the API's 404. A
    // malformed one is a 404 from the server guard.
    await expectCutOff(
      `${V1}/commerce/checkout-session%73`,
      auth(creds().extended, { 'Content-Type': 'application/json' }),
      404,
      '{"lines":[',
    );
    await expectCutOff(
      `${V1}/commerce/checkout-sessions/%E0%A4%A`,
      auth(creds().extended, { 'Content-Type': 'application/json' }),
      404,
      '{"lines":[',
    );
    await expectCutOff(
      '/shop-api/cart/%E0%A4%A',
      { Origin: server.baseURL, 'Content-Type': 'application/x-www-form-urlencoded' },
      404,
      'variantId=',
    );
  });

  test('a server action (or any body sent to a page): 411 without a length, 413 past 32 KiB', async () => {
    const html = await (await fetch(`${server.baseURL}/`)).text();
    const actionId = /\$ACTION_ID_([0-9a-f]+)/.exec(html)?.[1];
    expect(actionId, 'the market switcher is a server action form').toBeTruthy();
    for (const type of ['text/plain;charset=UTF-8', 'multipart/form-data; boundary=x']) {
      await expectCutOff('/', { Origin: server.baseURL, 'Next-Action': actionId!, 'Content-Type': type }, 411);
    }
    await expectCutOff('/cart', { Origin: server.baseURL, 'Content-Type': 'application/x-www-form-urlencoded' }, 411);
    // A declared length past the limit is refused before a byte of it is read.
    const declared = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${server.baseURL}/`,
        { method: 'POST', headers: { 'Next-Action': actionId!, 'Content-Type': 'text/plain', 'Content-Length': String(HUGE) } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
          req.destroy();
        },
      );
      req.on('error', reject);
      req.write('x'.repeat(1024));
    });
    expect(declared).toBe(413);
    // The market switcher's own post (a form without JavaScript) still works.
    const form = new FormData();
    form.set(`$ACTION_ID_${actionId}`, '');
    form.set('preference', 'se|en-SE');
    const small = await fetch(`${server.baseURL}/`, {
      method: 'POST',
      body: form,
      redirect: 'manual',
      headers: { Origin: server.baseURL },
    });
    expect(small.status).toBeLessThan(400);
    expect(small.headers.get('set-cookie')).toContain('locale=en-SE');
  });

  test("/docs/assets serves only the reference's own static files, and says nothing of where they live", async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'nope.css', 'swagger-ui.css', '..%2F..%2Fpackage.json']) {
      const res = await fetch(`${server.baseURL}/docs/assets/${name}`);
      expect(res.status, name).toBe(404);
      expect(await res.text()).not.toContain('node_modules');
    }
    const html = await (await fetch(`${server.baseURL}/docs`)).text();
    const css = /href="(\/docs\/assets\/[^"]+\.css)"/.exec(html)?.[1];
    expect((await fetch(`${server.baseURL}${css}`)).status).toBe(200);
    expect(server.output()).not.toMatch(/swagger-ui-dist|ENOENT/);
  });
});

test.describe('TRACE and OPTIONS', () => {
  test('TRACE, and any method no path serves, on an API path: 405 problem+json with the Allow of that path', async () => {
    const cases: [string, string][] = [
      ['/site', 'GET, HEAD'],
      ['/commerce/products/linen-tote-bag', 'GET, HEAD'],
      ['/commerce/checkout-sessions', 'POST'],
      ['/commerce/checkout-sessions/cs_123', 'GET, HEAD, PATCH'],
      ['/openapi.json', 'GET, HEAD'],
    ];
    for (const method of ['TRACE', 'PROPFIND', 'PURGE', 'MKCOL']) {
      for (const [path, allow] of cases) {
        const res = await raw(`${BASE_URL}${V1}${path}`, method, { 'X-Request-Id': 'trace-test-0001' });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers['content-type']).toContain('application/problem+json');
        expect(res.headers['x-request-id']).toBe('trace-test-0001');
        expect(res.headers.allow, path).toBe(allow);
        const body = Problem.parse(JSON.parse(res.body));
        expect(body).toMatchObject({ status: 405, code: 'method_not_allowed', requestId: 'trace-test-0001' });
      }
      const unknown = await raw(`${BASE_URL}${V1}/nope/not-here`, method);
      expect(unknown.status).toBe(404);
      expect(Problem.parse(JSON.parse(unknown.body)).code).toBe('not_found');
    }
  });

  test('TRACE and PROPFIND on the shop and the API reference: 405 in their own format, never a 500 or an empty 400', async () => {
    for (const method of ['TRACE', 'PROPFIND'])
      for (const [path, type, allow] of [
        ['/', 'text/html', 'GET, HEAD, POST'],
        ['/products', 'text/html', 'GET, HEAD, POST'],
        ['/products/linen-tote-bag', 'text/html', 'GET, HEAD, POST'],
        ['/cart', 'text/html', 'GET, HEAD, POST'],
        ['/docs', 'text/html', 'GET, HEAD'],
        ['/docs/assets/swagger-ui-bundle-0.0.0.js', 'text/html', 'GET, HEAD'],
        ['/robots.txt', 'text/html', 'GET, HEAD, POST'],
        ['/shop-api/events', 'application/problem+json', 'GET, HEAD, POST'],
      ]) {
        const res = await raw(`${BASE_URL}${path}`, method);
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers['content-type'], path).toContain(type);
        expect(res.headers.allow, path).toBe(allow);
        expect(res.body).not.toMatch(/TypeError|at .*\.js:\d+/);
      }
  });

  test('OPTIONS on every API path lists exactly the methods it serves', async () => {
    const byPath = new Map<string, Set<string>>();
    for (const op of operations) byPath.set(op.path, (byPath.get(op.path) ?? new Set()).add(op.method.toUpperCase()));
    for (const [template, methods] of byPath) {
      const path = template.replace(/\{\w+\}/g, 'x1');
      const res = await raw(`${BASE_URL}${V1}${path}`, 'OPTIONS');
      expect(res.status, path).toBe(204);
      const allow = String(res.headers.allow).split(', ');
      const expected = [...methods, ...(methods.has('GET') ? ['HEAD'] : []), 'OPTIONS'];
      expect(allow.sort(), path).toEqual(expected.sort());
      // and every method not listed is refused with the same list
      for (const method of ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'].filter((m) => !methods.has(m))) {
        const other = await raw(`${BASE_URL}${V1}${path}`, method, auth(creds().extended));
        expect(other.status, `${method} ${path}`).toBe(405);
        expect(String(other.headers.allow).split(', ').sort()).toEqual(expected.filter((m) => m !== 'OPTIONS').sort());
      }
    }
    const unknown = await raw(`${BASE_URL}${V1}/nope`, 'OPTIONS');
    expect(unknown.status).toBe(404);
  });
});
