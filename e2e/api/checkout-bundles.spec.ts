import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/contract';
import { AvailabilityBatch, Product } from '@/lib/contract/catalog';
import { CheckoutSession, CountryChangeQuote } from '@/lib/contract/checkout';
import { creds, expectProblem, get, post } from '../support/api';

const PATH = '/commerce/checkout-sessions';
const HANDLE = 'morning-coffee-set';
const minor = (amount: string) => Number(amount.replace('.', ''));

async function product(request: APIRequestContext, market = 'se') {
  const res = await get(request, `/commerce/products/${HANDLE}?market=${market}`);
  expect(res.status(), await res.text()).toBe(200);
  return Product.parse(await res.json());
}

/** A bundle of the product whose every item can be bought now (the seed generates some stock). */
async function sellableBundle(request: APIRequestContext) {
  const { bundles } = await product(request);
  const ids = [...new Set(bundles.flatMap((b) => b.items.map((i) => i.variantId)))];
  const res = await get(request, `/commerce/availability?variantIds=${ids.join(',')}`);
  const buyable = new Set(
    AvailabilityBatch.parse(await res.json())
      .data.filter((a) => a.purchasable)
      .map((a) => a.variantId),
  );
  const bundle = bundles.find((b) => b.items.every((i) => buyable.has(i.variantId)));
  expect(bundle, `a sellable bundle on ${HANDLE}`).toBeTruthy();
  return bundle!;
}

test('a session with a bundle is charged the bundle price, one line per item', async ({ request }) => {
  const bundle = await sellableBundle(request);
  const res = await post(request, PATH, { lines: [], bundles: [{ bundleId: bundle.id, quantity: 1 }] }, creds().core);
  expect(res.status(), await res.text()).toBe(201);
  const session = CheckoutSession.parse(await res.json());
  expect(session.currency).toBe('SEK');
  expect(session.totals.subtotal).toEqual(bundle.price);
  expect(session.lines.map((l) => [l.variantId, l.quantity])).toEqual(bundle.items.map((i) => [i.variantId, i.quantity]));
  expect(session.lines.every((l) => l.title.endsWith(`(${bundle.title})`))).toBe(true);
  expect(session.lines.reduce((n, l) => n + minor(l.total.amount), 0)).toBe(minor(bundle.price.amount));
});

test('change-country re-allocates the bundle at its EUR price', async ({ request }) => {
  const bundle = await sellableBundle(request);
  const de = (await product(request, 'de')).bundles.find((b) => b.id === bundle.id)!;
  const created = CheckoutSession.parse(
    await (await post(request, PATH, { lines: [], bundles: [{ bundleId: bundle.id, quantity: 2 }] })).json(),
  );
  const res = await post(request, `${PATH}/${created.id}/change-country`, { country: 'DE' });
  expect(res.status(), await res.text()).toBe(200);
  const { session, quote } = CountryChangeQuote.parse(await res.json());
  expect(quote.warnings).toEqual([]);
  expect(session.totals.subtotal).toEqual({ amount: ((2 * minor(de.price.amount)) / 100).toFixed(2), currency: 'EUR' });
});

test("an unknown or another Site's bundle is 422 unknown_variant at the bundle", async ({ request }) => {
  const bundle = await sellableBundle(request);
  const bogus = await expectProblem(
    await post(request, PATH, { lines: [], bundles: [{ bundleId: 'bun_doesnotexist0000', quantity: 1 }] }, creds().core),
    422,
    'unknown_variant',
  );
  expect(bogus.errors?.map((e) => e.pointer)).toEqual(['/bundles/0/bundleId']);
  const foreign = await expectProblem(
    await post(request, PATH, { lines: [], bundles: [{ bundleId: bundle.id, quantity: 1 }] }, creds().outletCore),
    422,
    'unknown_variant',
  );
  expect(foreign.errors?.map((e) => e.pointer)).toEqual(['/bundles/0/bundleId']);
});

test('a bundle whose items are not in stock for the quantity is 409 insufficient_stock', async ({ request }) => {
  const bundle = await sellableBundle(request);
  // Every seeded bundle holds a mug, and no mug has 99 in stock.
  const res = await post(request, PATH, { lines: [], bundles: [{ bundleId: bundle.id, quantity: 99 }] }, creds().core);
  const problem = await expectProblem(res, 409, 'insufficient_stock');
  expect(problem.errors?.map((e) => e.pointer)).toEqual(['/bundles/0/bundleId']);
});

test.describe('the bundles body is strict', () => {
  const cases: [string, unknown, string][] = [
    ['neither lines nor bundles', { lines: [], bundles: [] }, '/lines'],
    [
      'a price in a bundle',
      { lines: [], bundles: [{ bundleId: 'bun_x', quantity: 1, price: { amount: '1.00', currency: 'SEK' } }] },
      '/bundles/0/price',
    ],
    ['quantity 0', { lines: [], bundles: [{ bundleId: 'bun_x', quantity: 0 }] }, '/bundles/0/quantity'],
    ['21 bundles', { lines: [], bundles: Array.from({ length: 21 }, (_, i) => ({ bundleId: `bun_${i}`, quantity: 1 })) }, '/bundles'],
  ];
  for (const [name, body, pointer] of cases) {
    test(name, async ({ request }) => {
      const problem = await expectProblem(await post(request, PATH, body, creds().core), 422, 'validation_failed');
      expect(problem.errors?.map((e) => e.pointer)).toContain(pointer);
    });
  }
});
