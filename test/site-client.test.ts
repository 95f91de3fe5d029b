import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

// lib/site-client is server-only; this test is the server.
vi.mock('server-only', () => ({}));

const CREDENTIAL = `site_extended_${'A1b2C3d4'.repeat(5)}`;
process.env.SITE_API_CREDENTIAL = CREDENTIAL;
process.env.SITE_API_BASE_URL = 'http://api.test:9999/';

type Client = typeof import('@/lib/site-client');
let client: Client;
beforeAll(async () => {
  client = await import('@/lib/site-client');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const site = {
  id: 'site_1',
  handle: 'demo',
  name: 'Demo',
  defaultMarket: 'se',
  defaultLocale: 'sv-SE',
  locale: 'sv-SE',
  markets: [
    { id: 'se', name: 'Sweden', countries: ['SE'], currency: 'SEK', locales: ['sv-SE'], defaultLocale: 'sv-SE', taxInclusive: true },
  ],
};

function reply(status: number, body: unknown, headers: Record<string, string> = {}) {
  const type = status >= 400 ? 'application/problem+json' : 'application/json';
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'Content-Type': type, ...headers } });
}

function problem(status: number, code: string, extra: Record<string, unknown> = {}) {
  return reply(status, { type: 'about:blank', title: code, status, detail: `${code} detail`, code, requestId: 'req_1', ...extra });
}

describe('site client', () => {
  it('calls the API with the credential and parses the answer with the contract schema', async () => {
    const fetch = vi.fn(async () => reply(200, { ...site, extra: 'dropped by the schema' }));
    vi.stubGlobal('fetch', fetch);
    const result = await client.fetchSite();
    expect(result).toEqual(site);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://api.test:9999/site/v1/site');
    expect((init.headers as Record<string, string>).Authorization).toBe(`Bearer ${CREDENTIAL}`);
    expect(init.cache).toBe('no-store');
  });

  it("makes links on the API's own origin paths, wherever they are and however the answer is laid out", async () => {
    const { z } = await import('zod');
    const { defineOperation } = await import('@/lib/contract/operation');
    const echo = defineOperation({
      operationId: 'echo',
      method: 'get',
      path: '/echo',
      scope: 'core',
      tag: 'test',
      summary: 'echo',
      success: { status: 200, description: 'anything', schema: z.unknown() },
      errors: [],
    });
    const own = 'http://api.test:9999';
    const links = {
      featuredImage: { url: `${own}/products/a.svg`, alt: 'A' },
      images: [{ url: `${own}/products/b.svg` }, { url: 'https://cdn.example/c.svg' }],
      checkoutUrl: `${own}/checkout/cs_1`,
    };
    const paths = {
      featuredImage: { url: '/products/a.svg', alt: 'A' },
      images: [{ url: '/products/b.svg' }, { url: 'https://cdn.example/c.svg' }],
      checkoutUrl: '/checkout/cs_1',
    };
    // Not links: only the fields named url and checkoutUrl are.
    const texts = { description: `see {"url":"${own}/x"} and ${own}/y`, homepage: `${own}/` };
    for (const [answer, expected] of [
      [links, paths],
      [
        { ...links, ...texts },
        { ...paths, ...texts },
      ],
    ]) {
      for (const text of [JSON.stringify(answer), JSON.stringify(answer, null, 2)]) {
        vi.stubGlobal(
          'fetch',
          vi.fn(async () => reply(200, text)),
        );
        expect((await client.call(echo)).data).toEqual(expected);
      }
    }
  });

  it('encodes path parameters and query values', async () => {
    const fetch = vi.fn(async () => problem(404, 'not_found'));
    vi.stubGlobal('fetch', fetch);
    await expect(client.fetchProduct('a/b c', { market: 'de', locale: 'de-DE' })).rejects.toBeInstanceOf(client.SiteApiError);
    const [url] = fetch.mock.calls[0] as unknown as [string];
    expect(url).toBe('http://api.test:9999/site/v1/commerce/products/a%2Fb%20c?market=de&locale=de-DE');
  });

  it('maps problem+json to SiteApiError with its code and field pointers', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        problem(409, 'insufficient_stock', {
          errors: [{ pointer: '/lines/0/variantId', code: 'insufficient_stock', detail: 'Sold out.' }],
        }),
      ),
    );
    const error = await client.startCheckout({ lines: [{ variantId: 'var_1', quantity: 1 }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(client.SiteApiError);
    expect(error).toMatchObject({ status: 409, code: 'insufficient_stock', errors: [{ pointer: '/lines/0/variantId' }] });
  });

  it('sends Idempotency-Key and Site-Buyer-IP, and waits out a same-key request in flight', async () => {
    const session = {
      id: 'cs_1',
      status: 'open',
      market: 'se',
      locale: 'sv-SE',
      currency: 'SEK',
      email: null,
      phone: null,
      lines: [],
      totals: {
        subtotal: { amount: '0.00', currency: 'SEK' },
        shipping: null,
        tax: { amount: '0.00', currency: 'SEK' },
        total: { amount: '0.00', currency: 'SEK' },
      },
      shippingAddress: null,
      billingAddress: null,
      deliveryOption: null,
      checkoutUrl: 'https://pay.test/cs_1',
      expiresAt: '2026-01-02T00:00:00.000Z',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(problem(409, 'idempotency_key_in_use'))
      .mockResolvedValueOnce(reply(201, session, { 'Idempotent-Replayed': 'true' }));
    vi.stubGlobal('fetch', fetch);
    const result = await client.startCheckout(
      { lines: [{ variantId: 'var_1', quantity: 1 }] },
      { idempotencyKey: 'k-1', buyerIp: '203.0.113.9' },
    );
    expect(result.session.id).toBe('cs_1');
    expect(result.replayed).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(2);
    for (const [, init] of fetch.mock.calls as [string, RequestInit][]) {
      const headers = init.headers as Record<string, string>;
      expect(headers['Idempotency-Key']).toBe('k-1');
      expect(headers['Site-Buyer-IP']).toBe('203.0.113.9');
      expect(headers['Content-Type']).toBe('application/json');
      expect(JSON.parse(String(init.body))).toEqual({ lines: [{ variantId: 'var_1', quantity: 1 }] });
    }
  });

  it('names the current shopper on calls that do not name one, reads included; filters go out as comma lists', async () => {
    const fetch = vi.fn(async () => reply(200, { data: [], page: { limit: 100, nextCursor: null } }));
    vi.stubGlobal('fetch', fetch);
    client.nameShoppersWith(async () => '198.51.100.7');
    try {
      await client.fetchCatalogPage({ variantIds: ['var_b', 'var_a', 'var_b'], handles: [], limit: 100 });
      const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
      expect(url).toBe('http://api.test:9999/site/v1/commerce/catalog?limit=100&variantIds=var_b%2Cvar_a');
      expect((init.headers as Record<string, string>)['Site-Buyer-IP']).toBe('198.51.100.7');
      // An explicit null names no one, whatever the current request is.
      await client.fetchProducts({ handles: ['a'] }).catch(() => {});
      await client.call((await import('@/lib/contract/operations/reads')).listProducts, { query: {}, buyerIp: null }).catch(() => {});
      const [, last] = fetch.mock.calls[2] as unknown as [string, RequestInit];
      expect((last.headers as Record<string, string>)['Site-Buyer-IP']).toBeUndefined();
    } finally {
      client.nameShoppersWith(async () => null);
    }
  });

  it('remembers a shopper the API refused for their own read budget, until its Retry-After, and nobody else', async () => {
    const refused = (policy: string) =>
      new Response(
        JSON.stringify({ type: 'about:blank', title: 'Too many', status: 429, detail: 'budget', code: 'rate_limited', requestId: 'req_1' }),
        {
          status: 429,
          headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '30', 'RateLimit-Policy': policy },
        },
      );
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => refused('"shopper-reads";q=3000;w=60')),
    );
    const before = Date.now();
    await expect(client.call((await import('@/lib/contract/operations/reads')).getSite, { buyerIp: '198.51.100.20' })).rejects.toSatisfy(
      (e) => client.isSiteApiError(e, 'rate_limited'),
    );
    const after = Date.now();
    // 30 s from when the refusal came in, which was between `before` and `after`
    expect(client.shopperLimitedFor('198.51.100.20', before)).toBeGreaterThanOrEqual(30);
    expect(client.shopperLimitedFor('198.51.100.20', after)).toBeLessThanOrEqual(30);
    expect(client.shopperLimitedFor('198.51.100.20', before + 29_000)).toBeGreaterThanOrEqual(1);
    expect(client.shopperLimitedFor('198.51.100.21', after)).toBeNull();
    expect(client.shopperLimitedFor(null, after)).toBeNull();
    // the storefront's own budget spent is not one shopper's doing: nobody is remembered for it
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => refused('"reads";q=100000;w=60')),
    );
    await expect(client.call((await import('@/lib/contract/operations/reads')).getSite, { buyerIp: '198.51.100.22' })).rejects.toSatisfy(
      (e) => client.isSiteApiError(e, 'rate_limited'),
    );
    expect(client.shopperLimitedFor('198.51.100.22')).toBeNull();
    // nor for their writes: a shopper out of writes may still read pages
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => refused('"shopper-writes";q=300;w=60')),
    );
    await expect(client.call((await import('@/lib/contract/operations/reads')).getSite, { buyerIp: '198.51.100.23' })).rejects.toSatisfy(
      (e) => client.isSiteApiError(e, 'rate_limited'),
    );
    expect(client.shopperLimitedFor('198.51.100.23')).toBeNull();
    // once the Retry-After has passed the shopper is forgotten
    expect(client.shopperLimitedFor('198.51.100.20', after + 30_000)).toBeNull();
    expect(client.shopperLimitedFor('198.51.100.20', before)).toBeNull();
  });

  it('sends a search with a repeatable option once per value, and flags as `true`', async () => {
    const fetch = vi.fn(async () => reply(200, { data: [], page: { limit: 24, nextCursor: null } }));
    vi.stubGlobal('fetch', fetch);
    await client.searchProducts({
      q: 'mug',
      sort: 'price-asc',
      available: true,
      options: ['Color:Sand', 'Color:White'],
      collection: 'kitchen',
      facets: true,
      limit: 24,
    });
    const [url] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    const query = new URL(url).searchParams;
    expect(query.getAll('option')).toEqual(['Color:Sand', 'Color:White']);
    expect(Object.fromEntries([...query].filter(([k]) => k !== 'option'))).toEqual({
      limit: '24',
      q: 'mug',
      sort: 'price-asc',
      collection: 'kitchen',
      available: 'true',
      facets: 'true',
    });
  });

  it('turns a network failure, a non-contract body and a 5xx into SiteApiUnavailable without the credential', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const answer of [
      () => Promise.reject(new TypeError('fetch failed')),
      () => Promise.resolve(reply(200, { not: 'a site' })),
      () => Promise.resolve(reply(502, '<html>Bad gateway</html>')),
      () => Promise.resolve(problem(503, 'service_unavailable')),
    ]) {
      vi.stubGlobal('fetch', vi.fn(answer));
      const error = await client.fetchSite().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(client.SiteApiUnavailable);
      expect(String((error as Error).message)).not.toContain(CREDENTIAL);
    }
    for (const call of warn.mock.calls) expect(call.join(' ')).not.toContain(CREDENTIAL);
  });

  it('waits out a busy 503 (Retry-After: 1) on a read, but not an outage (Retry-After: 5)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const [retryAfter, calls] of [
      ['1', 3],
      ['5', 1],
    ] as const) {
      const fetch = vi.fn(async () => {
        const answer = problem(503, 'service_unavailable');
        answer.headers.set('Retry-After', retryAfter);
        return answer;
      });
      vi.stubGlobal('fetch', fetch);
      await expect(client.fetchSite()).rejects.toBeInstanceOf(client.SiteApiUnavailable);
      expect(fetch, `Retry-After: ${retryAfter}`).toHaveBeenCalledTimes(calls);
    }
  });

  it('does not retry a write without an idempotency key', async () => {
    const fetch = vi.fn(async () => Promise.reject(new TypeError('fetch failed')));
    vi.stubGlobal('fetch', fetch);
    await expect(
      client.subscribeToNewsletter({ email: 'a@example.com', consent: { granted: true, text: 'Yes', version: '1' } }),
    ).rejects.toBeInstanceOf(client.SiteApiUnavailable);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('cart cookie', () => {
  it('keeps only well-formed lines, merges repeats, clamps quantities and caps the line count', async () => {
    const { parseCart, serializeCart, withQuantity } = await import('@/app/(storefront)/_lib/cart-codec');
    const lines = Array.from({ length: 120 }, (_, i) => `var_${i}~1`);
    const cart = parseCart(
      ['nonce_123456', 'var_a~2', 'var_a~3', 'var_b~500', 'bad id~1', 'var_c~0', 'var_d~x', 'var_e~1.5', ...lines].join('.'),
    );
    expect(cart.nonce).toBe('nonce_123456');
    expect(cart.lines.slice(0, 2)).toEqual([
      { variantId: 'var_a', quantity: 5 },
      { variantId: 'var_b', quantity: 99 },
    ]);
    expect(cart.lines).toHaveLength(100);
    expect(parseCart(serializeCart(cart))).toEqual(cart);
    expect(withQuantity(cart, 'var_a', 0).lines.some((l) => l.variantId === 'var_a')).toBe(false);
  });

  it('gives every new cart its own nonce but a nonce-less cookie a stable one', async () => {
    const { parseCart } = await import('@/app/(storefront)/_lib/cart-codec');
    expect(parseCart(undefined).nonce).not.toBe(parseCart(undefined).nonce);
    expect(parseCart('x.var_a~1').nonce).toBe(parseCart('x.var_a~1').nonce);
  });
});
