import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { EARLY_READ_ROUTES, earlyRead } from '@/app/site/v1/_early-reads';
import { config } from '@/proxy';

// The routes are server-only; under vitest there is no bundler to enforce that.
vi.mock('server-only', () => ({}));

const API = new URL('../app/site/v1/', import.meta.url).pathname;

/** Route folders below /site/v1 whose endpoint serves GET. */
function getRoutes(): string[] {
  return readdirSync(API, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('/route.ts') && /^\s+GET: /m.test(readFileSync(join(API, path), 'utf8')))
    .map((path) => path.slice(0, -'/route.ts'.length))
    .sort();
}

const NO_BODY = [
  { type: 'header', key: 'content-length' },
  { type: 'header', key: 'transfer-encoding' },
];

describe('API reads answered by the proxy', () => {
  it('takes every read of the API but its OpenAPI document', () => {
    expect([...EARLY_READ_ROUTES].sort()).toEqual(getRoutes().filter((route) => route !== 'openapi.json'));
  });

  it('has the proxy run for the API only for requests without a body, the reads picked out of the route table', () => {
    const apiMatchers = config.matcher.filter((m) => typeof m !== 'string' && !m.source.includes('%'));
    expect(apiMatchers).toEqual([{ source: '/site/v1/:path+', missing: NO_BODY }]);
  });

  it('answers GET and HEAD only, at the route’s own path shape', () => {
    const at = (method: string, path: string) => earlyRead(new Request(`http://shop.test${path}`, { method }), path);
    expect(at('POST', '/site/v1/commerce/products/mug')).toBeUndefined();
    expect(at('PATCH', '/site/v1/commerce/checkout-sessions/cs_1')).toBeUndefined();
    expect(at('OPTIONS', '/site/v1/site')).toBeUndefined();
    expect(at('GET', '/site/v1/commerce/products/mug/extra')).toBeUndefined();
    expect(at('GET', '/site/v1/commerce/products/')).toBeUndefined();
    expect(at('GET', '/site/v1/commerce/checkout-sessions/cs_1/delivery-options')).toBeUndefined();
    expect(at('GET', '/site/v1/openapi.json')).toBeUndefined();
    expect(at('GET', '/products/mug')).toBeUndefined();
  });

  it('hands the request to the route’s own handler (e2e/api/early-reads.spec.ts compares whole answers)', async () => {
    // No credential: the route's own 401, with the request id it was sent.
    const answer = await earlyRead(
      new Request('http://shop.test/site/v1/commerce/products/k%C3%A5l', { headers: { 'X-Request-Id': 'req_early' } }),
      '/site/v1/commerce/products/k%C3%A5l',
    );
    expect(answer?.status).toBe(401);
    expect(answer?.headers.get('content-type')).toBe('application/problem+json');
    expect(answer?.headers.get('x-request-id')).toBe('req_early');
  });
});
