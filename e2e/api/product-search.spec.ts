import { expect, test } from '../support/contract';
import { ProductListPage } from '@/lib/contract/catalog';
import { expectProblem, get } from '../support/api';

// The products list's search, sort, filters and facets over HTTP (answers are checked
// against the OpenAPI document by the contract fixture).
const list = async (request: Parameters<typeof get>[0], query: string) => {
  const res = await get(request, `/commerce/products?${query}`);
  expect(res.status(), await res.text()).toBe(200);
  return ProductListPage.parse(await res.json());
};

test.describe('GET /commerce/products: search, sort, filters, facets', () => {
  test('searches in the requested locale, by prefix, inside compounds and past a typo', async ({ request }) => {
    expect((await list(request, 'q=keramikmugg')).data[0]?.handle).toBe('fjord-ceramic-mug');
    expect((await list(request, 'q=mugg')).data.map((p) => p.handle)).toContain('fjord-ceramic-mug');
    expect((await list(request, 'q=fjord%20mu&locale=en-SE')).data.map((p) => p.handle)).toContain('fjord-ceramic-mug');
    expect((await list(request, 'q=ceramc&locale=en-SE')).data.map((p) => p.handle)).toContain('fjord-ceramic-mug');
    expect((await list(request, 'q=becher&market=de&locale=de-DE')).data.map((p) => p.handle)).toContain('fjord-ceramic-mug');
  });

  test('finds word forms and whole compound parts in each language, and other languages below', async ({ request }) => {
    const handles = async (query: string) => (await list(request, `${query}&limit=50`)).data.map((p) => p.handle);
    expect(await handles('q=mugs&locale=en-SE')).toContain('fjord-ceramic-mug');
    expect(await handles('q=bags&locale=en-SE')).toContain('linen-tote-bag');
    expect(await handles('q=muggar')).toContain('fjord-ceramic-mug');
    expect(await handles('q=vaser')).toContain('skog-ceramic-vase');
    expect(await handles('q=kudde')).toContain('lofoten-cushion-cover');
    expect(await handles('q=handdukar')).toContain('bastu-sauna-towel');
    expect(await handles('q=Lampen&market=de&locale=de-DE')).toContain('filament-led-bulb');
    expect(await handles('q=Handt%C3%BCcher&market=de&locale=de-DE')).toContain('waffle-bath-towel');
    const wolle = await handles('q=Wolle&market=de&locale=de-DE');
    expect(wolle).toContain('aurora-wool-throw');
    expect(wolle).not.toContain('organic-cotton-tee'); // Baumwolle is cotton
    expect(await handles('q=mugg&locale=en-SE')).toContain('fjord-ceramic-mug'); // a typo, forgiven from four letters
    expect(await handles('q=keramikmugg&locale=en-SE')).toContain('fjord-ceramic-mug'); // Swedish, asked in English
  });

  // Each answers as its words, lower-cased (FTS5's operators are upper-case words and
  // punctuation): a query that used them as operators would answer otherwise, or fail.
  for (const q of [
    '%22',
    '*',
    '-',
    ':',
    '(',
    'NEAR',
    'OR',
    'mug%20OR',
    'NEAR(mug%20kettle)',
    'title%3Amug',
    '%5E',
    '%27%20OR%201%3D1--',
    '%22mug',
    'mug*',
    '-mug',
  ]) {
    test(`treats q=${q} as plain text`, async ({ request }) => {
      const handles = (await list(request, `q=${q}&limit=100`)).data.map((p) => p.handle);
      const words = decodeURIComponent(q)
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
      const asWords = words === '' ? [] : (await list(request, `q=${encodeURIComponent(words)}&limit=100`)).data.map((p) => p.handle);
      expect(handles).toEqual(asWords);
      if (words === 'mug') expect(handles).toContain('fjord-ceramic-mug');
    });
  }

  test('pages a sorted, filtered list without duplicates or gaps', async ({ request }) => {
    const query = 'sort=price-asc&available=true&priceMin=100';
    const whole = (await list(request, `${query}&limit=100`)).data.map((p) => p.handle);
    expect(whole.length).toBeGreaterThan(6);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ProductListPage = await list(request, `${query}&limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      paged.push(...page.data.map((p) => p.handle));
      cursor = page.page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(whole);
  });

  test('takes a repeated option filter (OR within an option) and answers facets', async ({ request }) => {
    // the default locale is sv-SE: options are named, filtered and counted in Swedish
    const colour = (value: string) => `option=${encodeURIComponent(`Färg:${value}`)}`;
    const sand = await list(request, `${colour('Sand')}&limit=100`);
    const white = await list(request, `${colour('Vit')}&limit=100`);
    const either = await list(request, `${colour('Sand')}&${colour('Vit')}&limit=100&facets=true`);
    const union = new Set([...sand.data, ...white.data].map((p) => p.handle));
    expect(new Set(either.data.map((p) => p.handle))).toEqual(union);
    const color = either.facets!.options.find((o) => o.name === 'Färg')!;
    // counted without the colour filter: every colour is offered, Sand and Vit with their own counts
    expect(color.values.find((v) => v.value === 'Sand')?.count).toBe(sand.data.length);
    expect(color.values.find((v) => v.value === 'Vit')?.count).toBe(white.data.length);
    expect(color.values.length).toBeGreaterThan(2);
    expect(either.facets!.price?.min.currency).toBe('SEK');
    expect(sand.facets).toBeUndefined();
  });

  for (const [q, pointer] of [
    ['sort=cheapest', 'sort'],
    ['q=', 'q'],
    [`q=${'x'.repeat(201)}`, 'q'],
    ['available=yes', 'available'],
    ['priceMin=ten', 'priceMin'],
    ['priceMin=1.001', 'priceMin'],
    ['priceMin=199.000', 'priceMin'],
    ['priceMin=500&priceMax=100', 'priceMin'],
    ['option=Color', 'option/0'],
    ['facets=1', 'facets'],
    ['sort=newest&cursor=eyJ4Ijox', 'cursor'],
  ] as const) {
    test(`rejects ${q.slice(0, 40)} as validation_failed`, async ({ request }) => {
      const body = await expectProblem(await get(request, `/commerce/products?${q}`), 422, 'validation_failed');
      expect(body.errors?.map((e) => e.pointer)).toContain(`#/query/${pointer}`);
    });
  }
});
