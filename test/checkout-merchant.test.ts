import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { inventoryLevels, pickupPoints, products, productVariants, sites, variantPrices } from '@/db/schema';
import { authenticateCredential, createCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import { DomainError } from '@/lib/platform/errors';
import {
  changeCheckoutCountry,
  createCheckoutSession,
  deliveryOptions,
  prepareCheckoutPayment,
  suggestAddresses,
  updateCheckoutSession,
  type PaymentProvider,
} from '@/lib/commerce/checkout';
import { findSession } from '@/lib/commerce/checkout/session-storage';
import { sandboxPaymentAction } from '@/lib/commerce/orders';
import { UpdateCheckoutSessionBody } from '@/lib/contract/checkout';
import { freshDatabase } from './support/database';

let database: Database;
let demo: SiteContext;

async function variant(productHandle: string, title: string): Promise<string> {
  const rows = await database
    .select({ id: productVariants.id, title: productVariants.title })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .innerJoin(sites, eq(sites.id, products.siteId))
    .where(and(eq(sites.handle, 'demo'), eq(products.handle, productHandle)))
    .orderBy(asc(productVariants.position));
  return rows.find((r) => r.title === title)!.id;
}

async function price(variantId: string, market: string): Promise<number> {
  const [row] = await database
    .select()
    .from(variantPrices)
    .where(and(eq(variantPrices.variantId, variantId), eq(variantPrices.marketId, market)));
  return row!.amount;
}

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, 'expected the call to fail').toBeInstanceOf(DomainError);
  return error as DomainError;
}

const addressIn = (country: string, postalCode: string, city: string) =>
  UpdateCheckoutSessionBody.parse({ shippingAddress: { firstName: 'Kim', lastName: 'Berg', line1: 'Main 1', postalCode, city, country } })
    .shippingAddress!;

async function open(lines: { variantId: string; quantity: number }[], market?: string) {
  return createCheckoutSession(database, demo, { lines, market }, { ttlSeconds: 86_400 });
}

beforeAll(async () => {
  ({ database } = await freshDatabase());
  demo = (await authenticateCredential(database, (await createCredential(database, { siteHandle: 'demo', scope: 'extended' })).token))!;
});

describe('change country', () => {
  it('re-prices in the new market, drops what cannot be sold there, clears delivery and misplaced addresses', async () => {
    const mug = await variant('fjord-ceramic-mug', 'White');
    const tote = await variant('linen-tote-bag', 'Natural');
    const jacket = await variant('polar-down-jacket', 'M');
    let session = await open([
      { variantId: mug, quantity: 2 },
      { variantId: tote, quantity: 1 },
      { variantId: jacket, quantity: 1 },
    ]);
    session = await updateCheckoutSession(database, demo.site, session.id, { shippingAddress: addressIn('SE', '11151', 'Stockholm') }, {});
    await deliveryOptions(database, demo.site, session.id, { select: 'ship_se_standard' });
    const previous = (await deliveryOptions(database, demo.site, session.id, {})).session.total;

    // Not sold in DE any more (no price), and the jacket runs short there.
    await database.delete(variantPrices).where(and(eq(variantPrices.variantId, tote), eq(variantPrices.marketId, 'de')));
    await database.update(inventoryLevels).set({ quantity: 0 }).where(eq(inventoryLevels.variantId, jacket));

    const { session: moved, quote } = await changeCheckoutCountry(database, demo.site, session.id, 'de');
    expect(moved).toMatchObject({
      marketId: 'de',
      currency: 'EUR',
      locale: 'de-DE',
      deliveryOption: null,
      shipping: null,
      shippingAddress: null,
    });
    expect(moved.lines.map((l) => [l.variantId, l.quantity, l.unitPrice, l.title])).toEqual([
      [mug, 2, await price(mug, 'de'), 'Fjord Keramikbecher — Weiß'],
    ]);
    expect(moved.total).toBe(2 * (await price(mug, 'de')));
    expect(quote.previousTotal).toEqual({ amount: (previous / 100).toFixed(2), currency: 'SEK' });
    expect(quote.total).toEqual({ amount: (moved.total / 100).toFixed(2), currency: 'EUR' });
    expect(quote.warnings.map((w) => [w.variantId, w.code])).toEqual([
      [tote, 'not_sold_in_market'],
      [jacket, 'insufficient_stock'],
    ]);

    await database.update(inventoryLevels).set({ quantity: 18 }).where(eq(inventoryLevels.variantId, jacket));
    await database.insert(variantPrices).values({ variantId: tote, marketId: 'de', amount: 1490, compareAtAmount: null });
  });

  it('keeps a locale the new market offers and an address in the chosen country', async () => {
    let session = await open([{ variantId: await variant('fjord-ceramic-mug', 'White'), quantity: 1 }], 'de');
    session = await updateCheckoutSession(database, demo.site, session.id, { shippingAddress: addressIn('AT', '1010', 'Wien') }, {});
    const { session: moved } = await changeCheckoutCountry(database, demo.site, session.id, 'AT');
    expect(moved).toMatchObject({ marketId: 'de', locale: 'de-DE', shippingAddress: { country: 'AT' } });
    const en = await createCheckoutSession(
      database,
      demo,
      { lines: [{ variantId: await variant('fjord-ceramic-mug', 'White'), quantity: 1 }], locale: 'en-SE' },
      { ttlSeconds: 60 },
    );
    // Not offered there: the same language in the new market, not its default (en-SE → en-DE, not de-DE).
    const inGermany = (await changeCheckoutCountry(database, demo.site, en.id, 'DE')).session;
    expect(inGermany).toMatchObject({ locale: 'en-DE', currency: 'EUR' });
    expect(inGermany.lines[0]!.title).toBe('Fjord Ceramic Mug — White');
    expect((await changeCheckoutCountry(database, demo.site, en.id, 'US')).session).toMatchObject({
      locale: 'en-US',
      currency: 'USD',
      tax: 0,
    });
  });

  it('taxes at the rate of the country it ships to, when its market spans countries with different rates', async () => {
    // Market "de" includes VAT: Germany's 19%, and Austria's own 20%.
    const mug = await variant('fjord-ceramic-mug', 'White');
    const inclusive = (total: number, bp: number) => Math.round((total * bp) / (10_000 + bp));
    let session = await open([{ variantId: mug, quantity: 3 }], 'de');
    const total = 3 * (await price(mug, 'de'));
    expect(session).toMatchObject({ total, tax: inclusive(total, 1900) });
    // An Austrian shipping address: the same prices, Austria's VAT inside them.
    session = await updateCheckoutSession(database, demo.site, session.id, { shippingAddress: addressIn('AT', '1010', 'Wien') }, {});
    expect(session).toMatchObject({ total, tax: inclusive(total, 2000) });
    expect(inclusive(total, 2000)).not.toBe(inclusive(total, 1900));
    // With home delivery chosen, shipping is taxed at that rate too, and stays chosen across the move back.
    const listed = await deliveryOptions(database, demo.site, session.id, { select: 'ship_de_standard' });
    const withShipping = listed.session!;
    expect(withShipping.tax).toBe(inclusive(withShipping.total, 2000));
    session = await updateCheckoutSession(database, demo.site, session.id, { shippingAddress: addressIn('DE', '10115', 'Berlin') }, {});
    expect(session).toMatchObject({
      deliveryOption: { id: 'ship_de_standard' },
      total: withShipping.total,
      tax: inclusive(withShipping.total, 1900),
    });
    // change-country to Austria without an address: Austria's rate as well.
    const { session: moved } = await changeCheckoutCountry(database, demo.site, session.id, 'AT');
    expect(moved.tax).toBe(inclusive(moved.total, 2000));
  });

  it('refuses a country no market serves', async () => {
    const session = await open([{ variantId: await variant('fjord-ceramic-mug', 'White'), quantity: 1 }]);
    const error = await failure(changeCheckoutCountry(database, demo.site, session.id, 'FR'));
    expect(error.code).toBe('unsupported_country');
  });
});

describe('delivery options', () => {
  it('lists ≥ 2 home-delivery speeds and the pickup points nearest the postal code; select re-totals', async () => {
    const mug = await variant('fjord-ceramic-mug', 'White');
    const session = await open([{ variantId: mug, quantity: 1 }], 'de');
    const listed = await deliveryOptions(database, demo.site, session.id, { postalCode: '10117' });
    const home = listed.options.filter((o) => o.kind === 'delivery');
    const pickup = listed.options.filter((o) => o.kind === 'pickup');
    expect(home.map((o) => o.id)).toEqual(['ship_de_standard', 'ship_de_express']);
    expect(pickup.length).toBeGreaterThanOrEqual(3);
    expect(pickup.length).toBeLessThanOrEqual(5);
    expect(pickup[0]!.pickupPoint!.address.city).toBe('Berlin');
    expect(pickup.every((o) => o.pickupPoint!.address.country === 'DE' && o.id === `pickup_${o.pickupPoint!.id}`)).toBe(true);
    expect(listed.selected).toBeNull();

    const chosen = await deliveryOptions(database, demo.site, session.id, { select: pickup[0]!.id });
    expect(chosen.selected).toBe(pickup[0]!.id);
    expect(chosen.session).toMatchObject({
      shipping: 395,
      total: (await price(mug, 'de')) + 395,
      deliveryOption: { kind: 'pickup', pickupPointId: pickup[0]!.pickupPoint!.id },
    });
    // Without a postal code and without an address there is no "near": only home delivery.
    expect((await deliveryOptions(database, demo.site, session.id, {})).options.every((o) => o.kind === 'delivery')).toBe(true);
  });

  it.each([
    ['a made-up id', 'ship_de_teleport'],
    ["another market's rate", 'ship_se_standard'],
    ['a pickup point in another country', 'SE'],
  ])('refuses %s with unknown_delivery_option', async (_name, select) => {
    const session = await open([{ variantId: await variant('fjord-ceramic-mug', 'White'), quantity: 1 }], 'de');
    const id =
      select === 'SE' ? `pickup_${(await database.select().from(pickupPoints).where(eq(pickupPoints.country, 'SE')))[0]!.id}` : select;
    expect((await failure(deliveryOptions(database, demo.site, session.id, { select: id }))).code).toBe('unknown_delivery_option');
  });

  it("checks a given postal code against the session's country", async () => {
    const session = await open([{ variantId: await variant('fjord-ceramic-mug', 'White'), quantity: 1 }]);
    expect((await failure(deliveryOptions(database, demo.site, session.id, { postalCode: '1010' }))).code).toBe('validation_failed');
  });
});

describe('address suggestions', () => {
  it("finds streets, postal codes and cities of the session's country by prefix", async () => {
    const session = await open([{ variantId: await variant('fjord-ceramic-mug', 'White'), quantity: 1 }]);
    const dro = await suggestAddresses(database, demo.site, session.id, 'Dro');
    expect(dro.length).toBeGreaterThan(3);
    expect(dro.length).toBeLessThanOrEqual(10);
    expect(dro.every((s) => s.address.line1.startsWith('Dro') && s.address.country === 'SE')).toBe(true);
    expect(dro[0]!.label).toMatch(/^Dro\S+, \d{3} \d{2} \S/);
    expect((await suggestAddresses(database, demo.site, session.id, 'öre')).every((s) => s.address.city === 'Örebro')).toBe(true);
    expect((await suggestAddresses(database, demo.site, session.id, '111')).every((s) => s.address.postalCode.startsWith('111'))).toBe(
      true,
    );
    expect(await suggestAddresses(database, demo.site, session.id, '%%%')).toEqual([]);
    expect(await suggestAddresses(database, demo.site, session.id, 'Friedrich')).toEqual([]); // a German street, not in SE
  });
});

describe('prepare payment', () => {
  it('names what is missing, moves to payment_pending once, and freezes the session', async () => {
    const session = await open([{ variantId: await variant('fjord-ceramic-mug', 'White'), quantity: 1 }]);
    const incomplete = await failure(prepareCheckoutPayment(database, demo.site, session.id, {}));
    expect(incomplete.code).toBe('session_incomplete');
    expect(incomplete.options.extensions).toEqual({ missing: ['email', 'shippingAddress', 'deliveryOption'] });

    await updateCheckoutSession(
      database,
      demo.site,
      session.id,
      { email: 'kim@example.com', shippingAddress: addressIn('SE', '41101', 'Göteborg') },
      {},
    );
    await deliveryOptions(database, demo.site, session.id, { select: 'ship_se_express' });
    const first = await prepareCheckoutPayment(database, demo.site, session.id, { method: 'card' });
    expect(first.session.status).toBe('payment_pending');
    expect(first.payment).toMatchObject({ provider: 'sandbox', amount: first.session.total, expiresAt: first.session.expiresAt });
    expect(first.payment.reference).toMatch(/^pay_sandbox_/);
    const again = await prepareCheckoutPayment(database, demo.site, session.id, {});
    expect(again.payment).toEqual(first.payment);

    for (const attempt of [
      updateCheckoutSession(database, demo.site, session.id, { email: 'x@example.com' }, {}),
      changeCheckoutCountry(database, demo.site, session.id, 'DE'),
      deliveryOptions(database, demo.site, session.id, { select: 'ship_se_standard' }),
    ]) {
      expect((await failure(attempt)).code).toBe('session_not_open');
    }
    // Listing is a read and still works.
    expect((await deliveryOptions(database, demo.site, session.id, {})).selected).toBe('ship_se_express');

    expect(await sandboxPaymentAction(database, { sessionId: session.id, clientToken: 'sandbox_ct_wrong', action: 'pay' })).toBeNull();
    const done = await sandboxPaymentAction(database, { sessionId: session.id, clientToken: first.payment.clientToken, action: 'pay' });
    expect(done?.outcome).toBe('completed');
    expect((await findSession(database, demo.site.id, session.id)).status).toBe('completed');
    expect((await failure(prepareCheckoutPayment(database, demo.site, session.id, {}))).code).toBe('session_not_open');
  });

  it('stores exactly one payment when prepares race, whatever the provider answers', async () => {
    const session = await open([{ variantId: await variant('fjord-ceramic-mug', 'White'), quantity: 1 }]);
    await updateCheckoutSession(
      database,
      demo.site,
      session.id,
      { email: 'kim@example.com', shippingAddress: addressIn('SE', '11151', 'Stockholm') },
      {},
    );
    await deliveryOptions(database, demo.site, session.id, { select: 'ship_se_standard' });
    let calls = 0;
    const slow: PaymentProvider = {
      name: 'slow',
      async preparePayment(request) {
        calls += 1;
        await new Promise((r) => setTimeout(r, 20));
        return { provider: 'slow', reference: `pay_slow_${calls}`, clientToken: 't', amount: request.amount, expiresAt: request.expiresAt };
      },
    };
    const results = await Promise.all(
      Array.from({ length: 5 }, () => prepareCheckoutPayment(database, demo.site, session.id, {}, { provider: slow })),
    );
    expect(new Set(results.map((r) => r.payment.reference)).size).toBe(1);
    expect(calls).toBeGreaterThanOrEqual(1);
  });
});

describe('the country chosen with change-country', () => {
  it('steers address suggestions before any address is given (DE → AT within one market)', async () => {
    const mug = await variant('fjord-ceramic-mug', 'White');
    const session = await open([{ variantId: mug, quantity: 1 }], 'de');
    const before = await suggestAddresses(database, demo.site, session.id, 'Hau');
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((s) => s.address.country === 'DE')).toBe(true);
    await changeCheckoutCountry(database, demo.site, session.id, 'AT');
    const after = await suggestAddresses(database, demo.site, session.id, 'Hau');
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((s) => s.address.country === 'AT')).toBe(true);
  });
});
