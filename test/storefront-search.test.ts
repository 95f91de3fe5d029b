import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SiteApiError, SiteApiUnavailable } from '@/lib/site-client';
import { listHref, paramOfPointer, readListState, resultCount, without } from '@/app/(storefront)/_lib/search';
import { dictionary } from '@/app/(storefront)/_lib/i18n';

vi.mock('server-only', () => ({}));
// The BFF endpoint's collaborators: the API client (what it asks) and the shopper's market.
const searchProducts = vi.hoisted(() => vi.fn());
vi.mock('@/lib/site-client', async (importOriginal) => ({ ...(await importOriginal<object>()), searchProducts }));
vi.mock('@/app/(storefront)/_lib/shop', () => ({
  shop: async () => ({ market: { id: 'se', currency: 'SEK' }, locale: 'en-SE', t: dictionary('en') }),
}));
const { GET } = await import('@/app/(storefront)/shop-api/search/route');

const sek = (amount: string) => ({ amount, currency: 'SEK' });
const mug = {
  id: 'prod_1',
  handle: 'fjord-ceramic-mug',
  title: 'Fjord Ceramic Mug',
  compareAtPrice: null,
  availability: 'in_stock',
  updatedAt: '2026-01-01T00:00:00Z',
  featuredImage: { url: '/products/mug.svg', width: 800, height: 800, alt: '' },
  priceRange: { min: sek('189.00'), max: sek('229.00') },
};

function ask(query: string, headers: Record<string, string> = {}) {
  return GET(new Request(`http://shop.test/shop-api/search${query}`, { headers: { 'Sec-Fetch-Site': 'same-origin', ...headers } }));
}

describe('GET /shop-api/search (the header box’s suggestions)', () => {
  beforeEach(() => {
    searchProducts.mockReset();
    searchProducts.mockResolvedValue({ data: [mug], page: { limit: 6, nextCursor: null } });
  });

  it('answers products with a formatted price and picture, asked in the shopper’s market and language', async () => {
    const res = await ask('?q=%20mug%20');
    expect(res.status).toBe(200);
    expect(searchProducts).toHaveBeenCalledWith({ market: 'se', locale: 'en-SE', q: 'mug', limit: 6 });
    const body = (await res.json()) as { q: string; data: { href: string; title: string; price: string; image: unknown }[] };
    expect(body.q).toBe('mug');
    expect(body.data).toEqual([
      {
        handle: 'fjord-ceramic-mug',
        title: 'Fjord Ceramic Mug',
        href: '/products/fjord-ceramic-mug',
        price: expect.stringMatching(/^From .*189/),
        image: { url: '/products/mug.svg', width: 800, height: 800 },
      },
    ]);
  });

  it.each([
    ['no q', '', '#/query/q'],
    ['a blank q', '?q=%20%20', '#/query/q'],
    ['q twice', '?q=a&q=b', '#/query/q'],
    ['a q over 200 characters', `?q=${'a'.repeat(201)}`, '#/query/q'],
    ['a limit that is no number', '?q=mug&limit=abc', '#/query/limit'],
    ['a limit of 0', '?q=mug&limit=0', '#/query/limit'],
    ['a limit over 8', '?q=mug&limit=9', '#/query/limit'],
  ])('refuses %s with a 422 problem pointing at it, without asking the API', async (_, query, pointer) => {
    const res = await ask(query);
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = (await res.json()) as { status: number; code: string; errors: { pointer: string }[] };
    expect(body).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(body.errors.map((e) => e.pointer)).toContain(pointer);
    expect(searchProducts).not.toHaveBeenCalled();
  });

  it('refuses a request from another site', async () => {
    const res = await ask('?q=mug', { 'Sec-Fetch-Site': 'cross-site' });
    expect(res.status).toBe(403);
    expect(searchProducts).not.toHaveBeenCalled();
  });

  it('passes the API’s rate limit on as 429, its validation as 422, and anything else as 503 — never a 500', async () => {
    const problem = (
      status: number,
      code: 'rate_limited' | 'validation_failed',
      errors?: { pointer: string; code: string; detail: string }[],
    ) => new SiteApiError({ type: 'x', title: 't', status, code, detail: 'd', requestId: 'r', errors });
    searchProducts.mockRejectedValueOnce(problem(429, 'rate_limited'));
    expect((await ask('?q=mug')).status).toBe(429);
    searchProducts.mockRejectedValueOnce(problem(422, 'validation_failed', [{ pointer: '#/query/q', code: 'too_big', detail: 'd' }]));
    const refused = await ask('?q=mug');
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { errors: { pointer: string }[] }).errors[0]?.pointer).toBe('#/query/q');
    searchProducts.mockRejectedValueOnce(new SiteApiUnavailable('listProducts', 'timeout'));
    const down = await ask('?q=mug');
    expect(down.status).toBe(503);
    expect(down.headers.get('content-type')).toBe('application/problem+json');
    searchProducts.mockRejectedValueOnce(new Error('boom'));
    expect((await ask('?q=mug')).status).toBe(503);
  });
});

describe('a list page’s URL state', () => {
  it('reads every parameter, blanks as absent, a comma as a decimal point', () => {
    const { state, ignored, blanks } = readListState({
      q: ' mug ',
      sort: 'price-asc',
      available: 'true',
      priceMin: '100,5',
      priceMax: '',
      option: ['Color:Sand', 'Color:Sand', 'Size:1 kg'],
      cursor: 'abc',
    });
    expect(ignored).toEqual([]);
    // priceMax= came blank (an empty form field): the page redirects to the URL without it.
    expect(blanks).toBe(true);
    expect(readListState({ q: 'mug', option: 'Color:Sand' }).blanks).toBe(false);
    expect(state).toEqual({
      q: 'mug',
      sort: 'price-asc',
      available: true,
      priceMin: '100.5',
      options: ['Color:Sand', 'Size:1 kg'],
      cursor: 'abc',
    });
  });

  it('reads control characters in q as spaces: a NUL is no search, and never reaches a title', () => {
    expect(readListState({ q: '\u0000' }).state.q).toBeUndefined();
    expect(readListState({ q: 'mug\u0000\u0007kettle' }).state.q).toBe('mug kettle');
  });

  it('leaves out and names what the API would refuse, so a bad link still shows a page', () => {
    const { state, ignored } = readListState({
      q: 'x'.repeat(201),
      sort: 'cheapest',
      available: 'yes',
      priceMin: 'abc',
      priceMax: '-5',
      option: ['Sand', 'Color:White'],
    });
    expect(ignored).toEqual(['q', 'sort', 'available', 'priceMin', 'priceMax', 'option']);
    expect(state).toEqual({ available: false, options: ['Color:White'] });
  });

  it('writes URLs in one order, and each filter can be taken out (the page goes back to its start)', () => {
    const { state } = readListState({ option: ['Color:Sand', 'Color:White'], available: 'true', q: 'mug', cursor: 'c1' });
    expect(listHref('/search', state)).toBe('/search?q=mug&available=true&option=Color%3ASand&option=Color%3AWhite&cursor=c1');
    expect(listHref('/search', without(state, 'option', 'Color:Sand'))).toBe('/search?q=mug&available=true&option=Color%3AWhite');
    expect(listHref('/search', without(state, 'available'))).toBe('/search?q=mug&option=Color%3ASand&option=Color%3AWhite');
    expect(listHref('/collections/kitchen', { available: false, options: [] })).toBe('/collections/kitchen');
  });

  it('maps the API’s pointers to parameters', () => {
    expect(paramOfPointer('#/query/priceMin')).toBe('priceMin');
    expect(paramOfPointer('#/query/option/1')).toBe('option');
    expect(paramOfPointer('#/query/market')).toBeNull();
    expect(paramOfPointer('#/body')).toBeNull();
  });

  it('counts the results from the availability facet (counted without its own filter)', () => {
    const facets = { options: [], availability: { available: 7, unavailable: 2 }, price: null };
    expect(resultCount({ available: false, options: [] }, facets)).toBe(9);
    expect(resultCount({ available: true, options: [] }, facets)).toBe(7);
    expect(resultCount({ available: false, options: [] }, undefined)).toBeNull();
  });
});
