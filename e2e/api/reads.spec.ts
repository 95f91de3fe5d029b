import { createHash } from 'node:crypto';
import { expect, test } from '../support/contract';
import {
  Availability,
  AvailabilityBatch,
  CatalogPage,
  Collection,
  CollectionPage,
  Product,
  ProductPage,
  Site,
  StorefrontSnapshot,
} from '@/lib/contract/catalog';
import { creds, expectProblem, get, V1 } from '../support/api';

// Every read: happy path (checked with the same zod schemas), 401, 304, and its own edges.
const READS = [
  { path: '/site', schema: Site },
  { path: '/commerce/storefront', schema: StorefrontSnapshot, localised: true },
  { path: '/commerce/catalog?limit=5', schema: CatalogPage, localised: true },
  { path: '/commerce/products?limit=5', schema: ProductPage, localised: true },
  { path: '/commerce/products/fjord-ceramic-mug', schema: Product, localised: true },
  { path: '/commerce/collections', schema: CollectionPage, localised: true },
  { path: '/commerce/collections/kitchen', schema: Collection, localised: true },
] as const;

for (const read of READS) {
  test.describe(`GET ${read.path}`, () => {
    test('answers 200 with a body matching its schema, ETag, caching headers', async ({ request }) => {
      const res = await get(request, read.path);
      expect(res.status(), await res.text()).toBe(200);
      read.schema.parse(await res.json());
      const h = res.headers();
      expect(h.etag).toMatch(/^"[^"]+"$/);
      expect(h['cache-control']).toContain('max-age');
      expect(h.vary).toContain('Authorization');
      expect(h['x-request-id']).toBeTruthy();
      if ('localised' in read) expect(h['content-language']).toBe('sv-SE');
    });

    test('answers 304 to a matching If-None-Match', async ({ request }) => {
      const first = await get(request, read.path);
      const again = await get(request, read.path, creds().core, { 'If-None-Match': first.headers().etag! });
      expect(again.status()).toBe(304);
      expect(await again.text()).toBe('');
      // The same Vary as the answer it stands for, Next's Accept-Encoding included.
      const varies = (h: string | undefined) => new Set((h ?? '').split(',').map((v) => v.trim().toLowerCase()));
      expect(varies(again.headers().vary)).toEqual(varies(first.headers().vary));
      expect(varies(again.headers().vary)).toContain('accept-encoding');
    });

    test('answers 401 without, with a malformed, an unknown or a revoked credential', async ({ request }) => {
      const none = await request.get(`${V1}${read.path}`);
      await expectProblem(none, 401, 'unauthorized');
      expect(none.headers()['www-authenticate']).toBe('Bearer realm="site"');
      for (const token of ['nonsense', 'site_core_short', `site_core_${'A'.repeat(40)}`, creds().revoked]) {
        await expectProblem(await get(request, read.path, token), 401, 'unauthorized');
      }
    });

    if ('localised' in read) {
      test('rejects an unknown market and a locale the market does not offer', async ({ request }) => {
        const sep = read.path.includes('?') ? '&' : '?';
        await expectProblem(await get(request, `${read.path}${sep}market=xx`), 422, 'unknown_market');
        await expectProblem(await get(request, `${read.path}${sep}market=de&locale=sv-SE`), 422, 'unsupported_locale');
        const de = await get(request, `${read.path}${sep}market=de`);
        expect(de.status()).toBe(200);
        expect(de.headers()['content-language']).toBe('de-DE');
      });
    }
  });
}

test('the Site lists the demo markets with currencies and locales', async ({ request }) => {
  const site = Site.parse(await (await get(request, '/site')).json());
  expect(site.handle).toBe('demo');
  expect(site.defaultMarket).toBe('se');
  const byId = Object.fromEntries(site.markets.map((m) => [m.id, m]));
  expect(byId.se).toMatchObject({ currency: 'SEK', countries: ['SE'] });
  expect(byId.de?.countries.sort()).toEqual(['AT', 'DE']);
  expect(byId.us).toMatchObject({ currency: 'USD', locales: ['en-US'], taxInclusive: false });
});

test("the Site carries the business behind it and its storefront texts in every locale; ?page= a page's Markdown in the locale", async ({
  request,
}) => {
  const site = Site.parse(await (await get(request, '/site')).json());
  expect(site.business).toMatchObject({ legalName: 'Nordlys Home & Goods AB', contactEmail: 'hello@nordlys.example' });
  expect(site.business?.postalAddress).toMatchObject({ city: 'Stockholm', country: 'SE' });
  expect(Object.keys(site.texts ?? {}).sort()).toEqual(['de-DE', 'en-DE', 'en-SE', 'en-US', 'sv-SE']);
  expect(site.texts?.['de-DE']?.heroTitle).toBe('Einfache Dinge, gut gemacht');
  expect(site.texts?.['en-US']?.newsletterPitch).toContain('About once a month');
  expect(site.page).toBeUndefined();

  const de = Site.parse(await (await get(request, '/site?page=withdrawal&locale=de-DE')).json());
  expect(de.page).toMatchObject({ key: 'withdrawal', textLocale: 'de' });
  expect(de.page?.markdown).toContain('Widerrufsbelehrung');
  const en = Site.parse(await (await get(request, '/site?page=imprint&locale=en-US')).json());
  expect(en.page?.markdown).toContain('Exempelgatan 1');

  const body = await expectProblem(await get(request, '/site?page=cookies'), 422, 'validation_failed');
  expect(body.errors?.[0]?.pointer).toBe('#/query/page');
});

test('prices are per market, as decimal strings in that currency', async ({ request }) => {
  const se = Product.parse(await (await get(request, '/commerce/products/fjord-ceramic-mug')).json());
  const us = Product.parse(await (await get(request, '/commerce/products/fjord-ceramic-mug?market=us')).json());
  expect(se.variants[0]!.price.currency).toBe('SEK');
  expect(us.variants[0]!.price.currency).toBe('USD');
  for (const v of [...se.variants, ...us.variants]) expect(v.price.amount).toMatch(/^\d+\.\d{2}$/);
  const en = Product.parse(await (await get(request, '/commerce/products/fjord-ceramic-mug?locale=en-SE')).json());
  expect(en.title).not.toBe(se.title);
});

test('every product in every market and language is kept exactly as it was made: its bytes hash to its ETag', async ({ request }) => {
  // Product answers are kept as their bytes per key (market, locale, catalog version). The
  // whole catalog in every market and language, read twice: the second read is the kept
  // copy. The ETag is made from the answer's text when it is made, so a body that came back
  // different by one byte, or another key's body, would not match it.
  const site = Site.parse(await (await get(request, '/site')).json());
  const handles: string[] = [];
  for (let cursor: string | null = null, first = true; first || cursor; first = false) {
    const page = ProductPage.parse(await (await get(request, `/commerce/products?limit=100${cursor ? `&cursor=${cursor}` : ''}`)).json());
    handles.push(...page.data.map((p) => p.handle));
    cursor = page.page.nextCursor;
  }
  expect(handles.length).toBeGreaterThan(20);
  for (const market of site.markets) {
    for (const locale of market.locales) {
      const paths = handles.map((h) => `/commerce/products/${h}?market=${market.id}&locale=${locale}`);
      for (let round = 0; round < 2; round++) {
        for (const path of paths) {
          const res = await get(request, path);
          expect(res.status(), path).toBe(200);
          const body = await res.body();
          const hash = `"${createHash('sha1').update(body).digest('base64url')}"`;
          expect(res.headers().etag, path).toBe(hash);
          const product = Product.parse(JSON.parse(body.toString('utf8')));
          expect(product.handle).toBe(path.split('/')[3]!.split('?')[0]);
          expect(product.variants.every((v) => v.price.currency === market.currency)).toBe(true);
        }
      }
    }
  }
});

test('product availability covers every coarse status and never shows quantities', async ({ request }) => {
  const statuses = new Set<string>();
  for (const handle of ['fjord-ceramic-mug', 'polar-down-jacket', 'aurora-wool-throw', 'linen-tote-bag']) {
    const res = await get(request, `/commerce/products/${handle}`);
    const text = await res.text();
    expect(text).not.toMatch(/quantity|threshold|policy/i);
    Product.parse(JSON.parse(text)).variants.forEach((v) => statuses.add(v.availability));
  }
  expect([...statuses].sort()).toEqual(['in_stock', 'low_stock', 'out_of_stock', 'preorder']);
});

test('a product with a bundle lists it with its price', async ({ request }) => {
  const product = Product.parse(await (await get(request, '/commerce/products/morning-coffee-set')).json());
  expect(product.bundles.length).toBeGreaterThan(0);
  expect(product.bundles[0]!.items.length).toBeGreaterThan(0);
});

test.describe('published only', () => {
  test('a draft product answers 404 and is absent from lists, catalog and collections', async ({ request }) => {
    await expectProblem(await get(request, '/commerce/products/draft-winter-parka'), 404, 'not_found');
    const seen = new Set<string>();
    for (const list of ['/commerce/products', '/commerce/catalog']) {
      let cursor: string | null = null;
      do {
        const res = await get(request, `${list}?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
        const body = (await res.json()) as { data: { handle: string }[]; page: { nextCursor: string | null } };
        body.data.forEach((p) => seen.add(p.handle));
        cursor = body.page.nextCursor;
      } while (cursor);
    }
    expect(seen.size).toBeGreaterThanOrEqual(40);
    expect(seen.has('draft-winter-parka')).toBe(false);
    const collections = CollectionPage.parse(await (await get(request, '/commerce/collections')).json());
    for (const c of collections.data) {
      const body = Collection.parse(await (await get(request, `/commerce/collections/${c.handle}?limit=100`)).json());
      expect(body.products.map((p) => p.handle)).not.toContain('draft-winter-parka');
      expect(body.products.length).toBe(Math.min(c.productCount, 100));
    }
  });
});

test.describe('pagination', () => {
  test('walks the product list with cursors: stable order, no repeats, no gaps', async ({ request }) => {
    const all = ProductPage.parse(await (await get(request, '/commerce/products?limit=100')).json()).data.map((p) => p.handle);
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page = ProductPage.parse(await (await get(request, `/commerce/products?limit=7${cursor ? `&cursor=${cursor}` : ''}`)).json());
      expect(page.data.length).toBeLessThanOrEqual(7);
      walked.push(...page.data.map((p) => p.handle));
      cursor = page.page.nextCursor;
    } while (cursor);
    expect(walked).toEqual(all);
    expect(ProductPage.parse(await (await get(request, '/commerce/products?limit=100')).json()).data.every((p) => p.featuredImage)).toBe(
      true,
    );
    expect([...walked].sort()).toEqual(walked);
  });

  test('keeps a collection in its stored order across pages', async ({ request }) => {
    const whole = Collection.parse(await (await get(request, '/commerce/collections/kitchen?limit=100')).json());
    const first = Collection.parse(await (await get(request, '/commerce/collections/kitchen?limit=2')).json());
    expect(first.products.map((p) => p.handle)).toEqual(whole.products.slice(0, 2).map((p) => p.handle));
    const second = Collection.parse(
      await (await get(request, `/commerce/collections/kitchen?limit=2&cursor=${first.page.nextCursor}`)).json(),
    );
    expect(second.products.map((p) => p.handle)).toEqual(whole.products.slice(2, 4).map((p) => p.handle));
  });

  // Only decimal digits are a count: `Number()` would also read hex, exponents and spaces.
  for (const q of [
    'limit=0',
    'limit=101',
    'limit=abc',
    'limit=2.5',
    'limit=0x10',
    'limit=1e2',
    'limit=%201',
    'limit=',
    'limit=-1',
    'cursor=garbage',
    "cursor=' OR 1=1--",
  ]) {
    test(`rejects ${q} as validation_failed`, async ({ request }) => {
      const body = await expectProblem(await get(request, `/commerce/products?${q}`), 422, 'validation_failed');
      expect(body.errors?.[0]?.pointer).toMatch(/^#\/query\/(limit|cursor)$/);
    });
  }

  test('a limit in plain digits is taken as written', async ({ request }) => {
    for (const [q, limit] of [
      ['limit=7', 7],
      ['limit=007', 7],
      ['', 24],
    ] as const) {
      const res = await get(request, `/commerce/products?${q}`);
      expect(res.status(), q).toBe(200);
      expect((await res.json()).page.limit, q).toBe(limit);
    }
  });

  test('the catalog allows up to 250 a page, not 251', async ({ request }) => {
    expect((await get(request, '/commerce/catalog?limit=250')).status()).toBe(200);
    await expectProblem(await get(request, '/commerce/catalog?limit=251'), 422, 'validation_failed');
  });

  test('a cursor from one list is refused by another', async ({ request }) => {
    const page = ProductPage.parse(await (await get(request, '/commerce/products?limit=1')).json());
    await expectProblem(await get(request, `/commerce/catalog?cursor=${page.page.nextCursor}`), 422, 'validation_failed');
  });
});

test.describe('availability', () => {
  test('one variant, and a batch with duplicates folded and unknown ids in notFound', async ({ request }) => {
    const mug = Product.parse(await (await get(request, '/commerce/products/fjord-ceramic-mug')).json());
    const id = mug.variants[0]!.id;
    const one = Availability.parse(await (await get(request, `/commerce/availability/${id}`)).json());
    expect(one.variantId).toBe(id);
    expect(one.purchasable).toBe(one.status !== 'out_of_stock');
    expect((await get(request, `/commerce/availability/${id}`)).headers()['cache-control']).toMatch(/max-age=\d{1,2}\b/);
    const ids = mug.variants.map((v) => v.id);
    const res = await get(request, `/commerce/availability?variantIds=${[...ids, ids[0], 'var_nope'].join(',')}`);
    const batch = AvailabilityBatch.parse(await res.json());
    expect(batch.data.map((d) => d.variantId)).toEqual(ids);
    expect(batch.notFound).toEqual(['var_nope']);
  });

  for (const kind of ['batch', 'single'] as const) {
    test(`${kind} availability asked again: a fresh asOf every time, one weak ETag while stock stands still, 304 for it`, async ({
      request,
    }) => {
      const mug = Product.parse(await (await get(request, '/commerce/products/fjord-ceramic-mug')).json());
      const path =
        kind === 'batch'
          ? `/commerce/availability?variantIds=${mug.variants.map((v) => v.id).join(',')}`
          : `/commerce/availability/${mug.variants[0]!.id}`;
      const schema = kind === 'batch' ? AvailabilityBatch : Availability;
      // Other tests change stock in parallel (a new ETag), and two answers in the same
      // millisecond share an asOf: either way, ask again.
      await expect(async () => {
        const first = await get(request, path);
        const etag = first.headers()['etag']!;
        expect(etag).toMatch(/^W\/"[^"]+"$/);
        const second = await get(request, path);
        expect(second.headers()['etag']).toBe(etag);
        const [a, b] = [schema.parse(await first.json()), schema.parse(await second.json())];
        expect({ ...b, asOf: '' }).toEqual({ ...a, asOf: '' });
        expect(Date.parse(b.asOf)).toBeGreaterThan(Date.parse(a.asOf));
        expect(Math.abs(Date.now() - Date.parse(b.asOf))).toBeLessThan(60_000);
        const revalidated = await get(request, path, undefined, { 'If-None-Match': etag });
        expect(revalidated.status()).toBe(304);
      }).toPass({ timeout: 20_000 });
    });
  }

  test('answers too_many_variant_ids past 100 distinct ids, and 422 for none', async ({ request }) => {
    const ids = Array.from({ length: 101 }, (_, i) => `var_x${i}`);
    await expectProblem(await get(request, `/commerce/availability?variantIds=${ids.join(',')}`), 422, 'too_many_variant_ids');
    const folded = Array.from({ length: 150 }, () => 'var_same').join(',');
    expect((await get(request, `/commerce/availability?variantIds=${folded}`)).status()).toBe(200);
    await expectProblem(await get(request, '/commerce/availability?variantIds=,,'), 422, 'validation_failed');
    await expectProblem(await get(request, '/commerce/availability'), 422, 'validation_failed');
  });

  test('a long query asked again is validated again the same way, by the operation it is sent to', async ({ request }) => {
    // Long queries' parses are kept by their text (lib/api/route.ts): only successes, per operation.
    const tooLong = `/commerce/availability?variantIds=var_a,${'b'.repeat(300)}`;
    const pad = `&pad=${'x'.repeat(300)}`;
    for (let i = 0; i < 2; i += 1) {
      await expectProblem(await get(request, tooLong), 422, 'validation_failed');
      await expectProblem(await get(request, `/commerce/products?limit=abc${pad}`), 422, 'validation_failed');
    }
    // The same text is another query to another operation: /site takes no query and ignores it.
    expect((await get(request, `/site?limit=abc${pad}`)).status()).toBe(200);
    await expectProblem(await get(request, `/commerce/products?limit=abc${pad}`), 422, 'validation_failed');
    expect((await get(request, `/commerce/products?limit=2${pad}`)).status()).toBe(200);
    // A parse that passed and a batch the handler then refuses: refused every time.
    const many = `/commerce/availability?variantIds=${Array.from({ length: 101 }, (_, i) => `var_many${i}`).join(',')}`;
    for (let i = 0; i < 2; i += 1) await expectProblem(await get(request, many), 422, 'too_many_variant_ids');
    const mug = Product.parse(await (await get(request, '/commerce/products/fjord-ceramic-mug')).json());
    const ids = mug.variants.map((v) => v.id);
    const path = `/commerce/availability?variantIds=${[ids[1], ...ids, 'var_nope', ids[0], `var_${'n'.repeat(150)}`].join(',')}`;
    expect(path.length).toBeGreaterThan(256);
    const [first, second] = [await get(request, path), await get(request, path)];
    const [a, b] = [AvailabilityBatch.parse(await first.json()), AvailabilityBatch.parse(await second.json())];
    const expected = [ids[1], ...ids.filter((id) => id !== ids[1])];
    expect(a.data.map((d) => d.variantId)).toEqual(expected);
    expect(b.data.map((d) => d.variantId)).toEqual(expected);
    expect([a.notFound, b.notFound]).toEqual([
      ['var_nope', `var_${'n'.repeat(150)}`],
      ['var_nope', `var_${'n'.repeat(150)}`],
    ]);
  });

  test('an unknown or unpublished variant answers 404', async ({ request }) => {
    await expectProblem(await get(request, '/commerce/availability/var_doesnotexist'), 404, 'not_found');
  });
});

test.describe('Site isolation', () => {
  test("another Site's product, variant and collection answer 404 exactly like unknown ones", async ({ request }) => {
    const outletProducts = ProductPage.parse(await (await get(request, '/commerce/products?limit=100', creds().outletCore)).json());
    const demoHandles = new Set(
      ProductPage.parse(await (await get(request, '/commerce/products?limit=100')).json()).data.map((p) => p.handle),
    );
    const onlyOutlet = outletProducts.data.find((p) => !demoHandles.has(p.handle));
    expect(onlyOutlet, 'the outlet seed has a product demo lacks').toBeTruthy();
    await expectProblem(await get(request, `/commerce/products/${onlyOutlet!.handle}`), 404, 'not_found');

    const outletTote = Product.parse(await (await get(request, '/commerce/products/linen-tote-bag', creds().outletCore)).json());
    const demoTote = Product.parse(await (await get(request, '/commerce/products/linen-tote-bag')).json());
    expect(outletTote.id).not.toBe(demoTote.id);
    const foreign = outletTote.variants[0]!.id;
    await expectProblem(await get(request, `/commerce/availability/${foreign}`), 404, 'not_found');
    const batch = AvailabilityBatch.parse(await (await get(request, `/commerce/availability?variantIds=${foreign}`)).json());
    expect(batch.notFound).toEqual([foreign]);

    const outletCollections = CollectionPage.parse(await (await get(request, '/commerce/collections', creds().outletCore)).json());
    const demoCollections = new Set(
      CollectionPage.parse(await (await get(request, '/commerce/collections')).json()).data.map((c) => c.handle),
    );
    for (const c of outletCollections.data.filter((c) => !demoCollections.has(c.handle))) {
      await expectProblem(await get(request, `/commerce/collections/${c.handle}`), 404, 'not_found');
    }
    const outletSite = Site.parse(await (await get(request, '/site', creds().outletCore)).json());
    expect(outletSite.handle).toBe('outlet');
    expect(outletSite.markets.map((m) => m.id)).toEqual(['se']);
  });
});

test.describe('hostile input never answers 500', () => {
  const HOSTILE = [
    "' OR 1=1 --",
    '"; DROP TABLE products; --',
    'a'.repeat(3000),
    '%2F..%2F..%2Fetc%2Fpasswd',
    '..%2F..%2F',
    '%00',
    '<script>alert(1)</script>',
    '😀',
    '%E0%A4%A',
    '%ZZ',
    'linen-tote-bag%2Fx',
    'Robert%27);DROP',
  ];
  for (const h of HOSTILE) {
    test(`handle ${h.slice(0, 30)}`, async ({ request }) => {
      for (const base of ['/commerce/products/', '/commerce/collections/', '/commerce/availability/']) {
        const res = await get(request, `${base}${h}`);
        expect([404, 422], `${base}${h.slice(0, 40)} → ${res.status()}`).toContain(res.status());
        expect(res.headers()['content-type']).toContain('application/problem+json');
        expect(await res.text()).not.toMatch(/SQLITE|stack|at \/|Error:/);
      }
    });
  }

  test('hostile market, locale and query values', async ({ request }) => {
    for (const q of [
      "market=' OR 1=1",
      `market=${'x'.repeat(3000)}`,
      'locale=%00',
      'market=se&locale=../../x',
      'limit=1e309',
      'limit=-1',
    ]) {
      const res = await get(request, `/commerce/products?${q}`);
      expect([422]).toContain(res.status());
      expect(res.headers()['content-type']).toContain('application/problem+json');
    }
  });
});

test.describe('protocol', () => {
  test('a method a path does not serve answers 405 with Allow', async ({ request }) => {
    const res = await request.post(`${V1}/commerce/products`, { headers: { Authorization: `Bearer ${creds().core}` }, data: {} });
    await expectProblem(res, 405, 'method_not_allowed');
    expect(res.headers().allow).toContain('GET');
    const del = await request.delete(`${V1}/site`, { headers: { Authorization: `Bearer ${creds().core}` } });
    await expectProblem(del, 405, 'method_not_allowed');
  });

  test('an unknown path under /site/v1 is a problem+json 404', async ({ request }) => {
    await expectProblem(await get(request, '/nope/not-here'), 404, 'not_found');
  });

  test("the benchmark's memory probe answers 404 outside the benchmark", async ({ request }) => {
    expect((await request.get('/bench-ceiling?memory=1')).status()).toBe(404);
  });

  test('echoes a valid X-Request-Id and replaces an invalid one', async ({ request }) => {
    const mine = await get(request, '/site', creds().core, { 'X-Request-Id': 'trace-12345678' });
    expect(mine.headers()['x-request-id']).toBe('trace-12345678');
    const bad = await get(request, '/site', creds().core, { 'X-Request-Id': 'bad id <script>' });
    expect(bad.headers()['x-request-id']).toMatch(/^req_/);
  });

  test('the storefront snapshot version changes only when its data does', async ({ request }) => {
    const a = StorefrontSnapshot.parse(await (await get(request, '/commerce/storefront')).json());
    const b = StorefrontSnapshot.parse(await (await get(request, '/commerce/storefront')).json());
    expect(b.version).toBe(a.version);
    expect(a.featured.length).toBeGreaterThan(0);
    expect(a.navigation.length).toBeGreaterThanOrEqual(5);
  });
});

test.describe('the description', () => {
  test('openapi.json is public OpenAPI 3.1 covering every read with its errors', async ({ request }) => {
    const res = await request.get(`${V1}/openapi.json`);
    expect(res.status()).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    for (const path of ['/site/v1/site', '/site/v1/commerce/products/{handle}', '/site/v1/commerce/availability']) {
      expect(doc.paths[path]?.get?.responses?.['200']).toBeTruthy();
      expect(doc.paths[path]?.get?.responses?.['401']).toBeTruthy();
    }
    // Each error answer names the codes that operation can give, and no others.
    const codesOf = (path: string, status: string) =>
      doc.paths[path].get.responses[status].content['application/problem+json'].schema.properties.code.enum;
    expect(codesOf('/site/v1/site', '401')).toEqual(['unauthorized']);
    expect(codesOf('/site/v1/commerce/products/{handle}', '404')).toEqual(['not_found']);
    expect(codesOf('/site/v1/commerce/availability', '422')).toEqual(expect.arrayContaining(['validation_failed', 'too_many_variant_ids']));
    expect(codesOf('/site/v1/commerce/availability', '422')).not.toContain('consent_required');
  });

  test('openapi.json answers like every API path: a request id, an ETag and 304, 405 for other methods', async ({ request }) => {
    const first = await request.get(`${V1}/openapi.json`, { headers: { 'X-Request-Id': 'openapi-test-01' } });
    expect(first.headers()['x-request-id']).toBe('openapi-test-01');
    const etag = first.headers().etag;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await request.get(`${V1}/openapi.json`, { headers: { 'If-None-Match': etag! } });
    expect(again.status()).toBe(304);
    for (const method of ['DELETE', 'PUT', 'POST', 'PATCH']) {
      const res = await request.fetch(`${V1}/openapi.json`, { method, data: method === 'DELETE' ? undefined : '{}' });
      expect(res.status(), method).toBe(405);
      expect(res.headers().allow).toBe('GET, HEAD');
      expect(res.headers()['content-type']).toContain('application/problem+json');
      expect((await res.json()).code).toBe('method_not_allowed');
    }
    const options = await request.fetch(`${V1}/openapi.json`, { method: 'OPTIONS' });
    expect(options.status()).toBe(204);
    expect(options.headers().allow).toBe('GET, HEAD, OPTIONS');
  });

  test('/docs renders the reference', async ({ request }) => {
    const res = await request.get('/docs');
    expect(res.status()).toBe(200);
    expect(await res.text()).toContain('/site/v1/openapi.json');
    expect((await request.get('/docs/assets/..%2Fpackage.json')).status()).toBe(404);
  });
});

test("the reference's files are static, named by their version, kept for good by browsers, and answer 304 to their ETag", async ({
  request,
}) => {
  const html = await (await request.get('/docs')).text();
  const src = /src="(\/docs\/assets\/swagger-ui-bundle-\d+\.\d+\.\d+\.js)"/.exec(html)?.[1];
  const href = /href="(\/docs\/assets\/swagger-ui-\d+\.\d+\.\d+\.css)"/.exec(html)?.[1];
  expect(src).toBeTruthy();
  expect((await request.get(href!)).headers()['content-type']).toContain('text/css');
  const first = await request.get(src!);
  expect(first.status()).toBe(200);
  expect(first.headers()['content-type']).toContain('javascript');
  expect(first.headers()['cache-control']).toContain('immutable');
  const again = await request.get(src!, { headers: { 'If-None-Match': first.headers().etag! } });
  expect(again.status()).toBe(304);
});
