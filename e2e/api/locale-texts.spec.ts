import { expect, test } from '../support/contract';
import { CatalogPage, Product, ProductListPage, Site, StorefrontSnapshot } from '@/lib/contract/catalog';
import { expectProblem, get } from '../support/api';

// Option names and values and market names follow `locale` (answers are checked against the
// OpenAPI document by the contract fixture).
const read = async <T>(request: Parameters<typeof get>[0], path: string, schema: { parse: (v: unknown) => T }) => {
  const res = await get(request, path);
  expect(res.status(), await res.text()).toBe(200);
  return { body: schema.parse(await res.json()), language: res.headers()['content-language'] };
};

test.describe('texts in the requested locale', () => {
  test('a product names its options, values and variant titles in sv-SE, de-DE and en-DE', async ({ request }) => {
    const sv = (await read(request, '/commerce/products/organic-cotton-tee?market=se&locale=sv-SE', Product)).body;
    expect(sv.options).toEqual([
      { name: 'Färg', values: ['Vit', 'Marinblå'] },
      { name: 'Storlek', values: ['S', 'M', 'L'] },
    ]);
    expect(sv.variants[0]).toMatchObject({ options: { Färg: 'Vit', Storlek: 'S' }, title: 'Vit / S' });
    const de = (await read(request, '/commerce/products/organic-cotton-tee?market=de&locale=de-DE', Product)).body;
    expect(de.options).toEqual([
      { name: 'Farbe', values: ['Weiß', 'Marineblau'] },
      { name: 'Größe', values: ['S', 'M', 'L'] },
    ]);
    expect(de.variants.map((v) => v.title)).toContain('Marineblau / M');
    const en = (await read(request, '/commerce/products/organic-cotton-tee?market=de&locale=en-DE', Product)).body;
    expect(en.options[0]).toEqual({ name: 'Color', values: ['White', 'Navy'] });
    // the same variant ids in every locale: carts and filters by id do not care
    expect(de.variants.map((v) => v.id)).toEqual(en.variants.map((v) => v.id));

    const feed = (await read(request, '/commerce/catalog?market=de&locale=de-DE&handles=organic-cotton-tee', CatalogPage)).body;
    expect(feed.data[0]!.options).toEqual(de.options);
  });

  test('facets give the displayed texts, and each sent back as a filter finds its count', async ({ request }) => {
    const path = (query: string) => `/commerce/products?market=de&locale=de-DE&limit=100&${query}`;
    const { body, language } = await read(request, path('facets=true'), ProductListPage);
    expect(language).toBe('de-DE');
    const farbe = body.facets!.options.find((o) => o.name === 'Farbe')!;
    expect(farbe.values.map((v) => v.value)).toContain('Weiß');
    expect(body.facets!.options.map((o) => o.name)).not.toContain('Color');
    for (const { value, count } of farbe.values.slice(0, 4)) {
      const filtered = (await read(request, path(`option=${encodeURIComponent(`Farbe:${value}`)}`), ProductListPage)).body;
      expect(filtered.data.length, value).toBe(count);
    }
    // the stored English names are not the German page's
    expect((await read(request, path('option=Color:White'), ProductListPage)).body.data).toEqual([]);
  });

  test('GET /site names markets in `locale`, with Content-Language; an unknown locale is a 422', async ({ request }) => {
    const plain = await read(request, '/site', Site);
    expect(plain.body.locale).toBe('sv-SE');
    expect(plain.language).toBe('sv-SE');
    expect(plain.body.markets.map((m) => m.name)).toEqual(['Sverige', 'Tyskland och Österrike', 'USA']);
    const de = await read(request, '/site?locale=de-DE', Site);
    expect(de.language).toBe('de-DE');
    expect(de.body.markets.map((m) => m.name)).toEqual(['Schweden', 'Deutschland & Österreich', 'Vereinigte Staaten']);
    expect((await read(request, '/site?locale=en-US', Site)).body.markets.map((m) => m.name)).toEqual([
      'Sweden',
      'Germany & Austria',
      'United States',
    ]);
    const problem = await expectProblem(await get(request, '/site?locale=fr-FR'), 422, 'unsupported_locale');
    expect(problem.errors?.map((e) => e.pointer)).toEqual(['#/query/locale']);
  });

  test('the storefront snapshot names its market and the others in its locale', async ({ request }) => {
    const { body } = await read(request, '/commerce/storefront?market=de&locale=de-DE', StorefrontSnapshot);
    expect(body.market.name).toBe('Deutschland & Österreich');
    expect(body.markets.map((m) => m.name)).toEqual(['Schweden', 'Deutschland & Österreich', 'Vereinigte Staaten']);
  });
});
