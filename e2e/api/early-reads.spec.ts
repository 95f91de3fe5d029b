import { request as httpRequest } from 'node:http';
import { expect, test } from '@playwright/test';
import { auth, creds, V1 } from '../support/api';

const BASE_URL = process.env.E2E_BASE_URL!;

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** One request with node:http, which sends exactly the headers given (fetch would add its own). */
function raw(path: string, method: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${BASE_URL}${path}`, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The proxy answers a read without a body (app/site/v1/_early-reads.ts); the same read with
 * `Content-Length: 0` skips the proxy (its matcher) and is routed by Next to the route. Next's
 * router adds its own tokens to Vary on a route's answer (`rsc`, …), which is how the two
 * ways in are told apart here; everything else must be the same.
 */
async function bothWays(path: string, method = 'GET', headers: Record<string, string> = {}) {
  const sent = { ...auth(creds().core), 'Accept-Encoding': 'identity', 'X-Request-Id': 'req_early_read_check', ...headers };
  const early = await raw(path, method, sent);
  const routed = await raw(path, method, { ...sent, 'Content-Length': '0' });
  expect(String(early.headers.vary)).not.toContain('rsc');
  expect(String(routed.headers.vary)).toContain('rsc');
  return { early, routed };
}

/** The headers that must agree: all but the connection's, the date, Vary (above) and the rate limit's remaining count. */
function comparable(answer: Raw): Record<string, unknown> {
  const skip = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'vary', 'ratelimit']);
  return Object.fromEntries(
    Object.entries(answer.headers)
      .filter(([name]) => !skip.has(name))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

test.describe('reads answered by the proxy', () => {
  test('answer exactly as their route does: status, body and headers', async () => {
    const product = JSON.parse((await bothWays(`${V1}/commerce/products/fjord-ceramic-mug`)).early.body) as { variants: { id: string }[] };
    const variant = product.variants[0]!.id;
    const paths = [
      '/site',
      '/commerce/storefront?market=DE&locale=de-DE',
      '/commerce/catalog?limit=3',
      '/commerce/products?limit=2&sort=price_asc',
      '/commerce/products?q=mug',
      '/commerce/products/fjord-ceramic-mug?market=US',
      '/commerce/collections',
      '/commerce/collections/kitchen?limit=2',
      `/commerce/availability?variantIds=${variant}`,
      `/commerce/availability/${variant}`,
      '/commerce/products?limit=0',
      '/commerce/checkout-sessions/cs_unknown',
    ];
    for (const path of paths) {
      const { early, routed } = await bothWays(`${V1}${path}`);
      expect(early.status, path).toBe(routed.status);
      // a batch's asOf is the time of its request
      const body = (answer: Raw) => answer.body.replace(/"asOf":"[^"]+"/, '"asOf":…');
      expect(body(early), path).toBe(body(routed));
      expect(comparable(early), path).toEqual(comparable(routed));
      if (early.status === 200) expect(early.headers.ratelimit, path).toBeTruthy();
    }
    // A segment reaches the handler decoded, as Next passes it: %66 is "f". (The proxy checks
    // such a path's percent-encoding first, its step 1, then answers the read.)
    const encoded = await raw(`${V1}/commerce/products/%66jord-ceramic-mug`, 'GET', auth(creds().core));
    expect(encoded.status).toBe(200);
    expect(String(encoded.headers.vary)).not.toContain('rsc');
    expect(encoded.body).toBe((await bothWays(`${V1}/commerce/products/fjord-ceramic-mug`)).early.body);
  });

  test('HEAD, a conditional GET and a refused credential go through the same handler', async () => {
    const path = `${V1}/commerce/products/fjord-ceramic-mug`;
    const head = await bothWays(path, 'HEAD');
    expect(head.early.status).toBe(200);
    expect(head.early.body).toBe('');
    expect(comparable(head.early)).toEqual(comparable(head.routed));

    const etag = String(head.early.headers.etag);
    const notModified = await bothWays(path, 'GET', { 'If-None-Match': etag });
    expect(notModified.early.status).toBe(304);
    expect(comparable(notModified.early)).toEqual(comparable(notModified.routed));

    const refused = await bothWays(path, 'GET', { Authorization: `Bearer ${creds().revoked}` });
    expect(refused.early.status).toBe(401);
    expect(refused.early.body).toBe(refused.routed.body);
  });

  test('leave writes and other methods to the route', async () => {
    // A POST to a read's path: the proxy does not run for it (it has a body), Next routes it.
    const post = await raw(
      `${V1}/commerce/products/fjord-ceramic-mug`,
      'POST',
      { ...auth(creds().core), 'Content-Type': 'application/json', 'Content-Length': '2' },
      '{}',
    );
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    // Without a body the proxy runs, and leaves it to the route all the same.
    const bare = await raw(`${V1}/commerce/products/fjord-ceramic-mug`, 'DELETE', auth(creds().core));
    expect(bare.status).toBe(405);
    expect(String(bare.headers.vary)).toContain('rsc');
    const options = await raw(`${V1}/site`, 'OPTIONS', {});
    expect(options.status).toBe(204);
  });
});
