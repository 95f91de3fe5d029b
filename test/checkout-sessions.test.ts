import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { execute, type Database } from '@/db';
import { checkoutSessions, products, productVariants, sites, variantPrices } from '@/db/schema';
import { authenticateCredential, createCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import { DomainError } from '@/lib/platform/errors';
import {
  changeCheckoutCountry,
  createCheckoutSession,
  getCheckoutSession,
  prepareCheckoutPayment,
  sessionEtag,
  toCheckoutSession,
  updateCheckoutSession,
} from '@/lib/commerce/checkout';
import { findSession } from '@/lib/commerce/checkout/session-storage';
import { CheckoutSession, UpdateCheckoutSessionBody } from '@/lib/contract/checkout';
import { freshDatabase } from './support/database';

const TTL = 86_400;
let database: Database;
let demo: SiteContext;
let outlet: SiteContext;

/** Variant id by Site, product handle and variant title (first variant when no title). */
async function variant(siteHandle: string, productHandle: string, title?: string): Promise<string> {
  const rows = await database
    .select({ id: productVariants.id, title: productVariants.title })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .innerJoin(sites, eq(sites.id, products.siteId))
    .where(and(eq(sites.handle, siteHandle), eq(products.handle, productHandle)))
    .orderBy(asc(productVariants.position));
  const row = title ? rows.find((r) => r.title === title) : rows[0];
  return row!.id;
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

const create = (body: Parameters<typeof createCheckoutSession>[2], now?: number) =>
  createCheckoutSession(database, demo, body, { ttlSeconds: TTL, now });

const address = (over: Partial<Record<string, string>> = {}) =>
  UpdateCheckoutSessionBody.parse({
    shippingAddress: {
      firstName: 'Kim',
      lastName: 'Berg',
      line1: 'Drottninggatan 1',
      postalCode: '11151',
      city: 'Stockholm',
      country: 'SE',
      ...over,
    },
  }).shippingAddress!;

beforeAll(async () => {
  ({ database } = await freshDatabase({ seed: { checkoutBaseUrl: 'https://shop.example/checkout' } }));
  const context = async (siteHandle: string) =>
    (await authenticateCredential(database, (await createCredential(database, { siteHandle, scope: 'extended' })).token))!;
  demo = await context('demo');
  outlet = await context('outlet');
});

describe('creating a session', () => {
  it('stores "no address, no delivery, no payment" as SQL NULL, not the JSON text null', async () => {
    const [variant] = await database
      .select({ id: productVariants.id })
      .from(productVariants)
      .where(eq(productVariants.siteId, demo.site.id))
      .limit(1);
    const session = await create({ lines: [{ variantId: variant!.id, quantity: 1 }] }).catch(() => null);
    if (!session) return expect.fail('the first demo variant should be sellable');
    const rows = await execute(database, {
      sql: 'SELECT shipping_address IS NULL AS a, billing_address IS NULL AS b, delivery_option IS NULL AS d, payment IS NULL AS p FROM checkout_sessions WHERE id = ?',
      args: [session.id],
    });
    expect(rows.rows[0]).toMatchObject({ a: 1, b: 1, d: 1, p: 1 });
  });

  it('gives sessions ids that sort by creation time, so new rows land at the end of the key indexes', async () => {
    const lines = [{ variantId: await variant('demo', 'fjord-ceramic-mug', 'White'), quantity: 1 }];
    const t0 = Date.UTC(2031, 4, 1);
    const sessions = [];
    for (const t of [t0 + 5_000, t0, t0 + 1, t0 + 86_400_000]) sessions.push(await create({ lines }, t));
    const ids = sessions.map((s) => s.id);
    for (const id of ids) expect(id).toMatch(/^cs_[0-9A-Za-z]{22}$/);
    expect([...ids].sort()).toEqual([ids[1], ids[2], ids[0], ids[3]]);
    const stored = await execute(database, {
      sql: `SELECT id FROM checkout_sessions WHERE id IN (${ids.map(() => '?').join(', ')}) ORDER BY id`,
      args: ids,
    });
    expect(stored.rows.map((r) => r.id)).toEqual([ids[1], ids[2], ids[0], ids[3]]);
  });

  it('prices lines from the catalog of the market and merges duplicates', async () => {
    const mug = await variant('demo', 'fjord-ceramic-mug', 'White');
    const tote = await variant('demo', 'linen-tote-bag', 'Natural');
    const session = await create({
      lines: [
        { variantId: mug, quantity: 2 },
        { variantId: tote, quantity: 1 },
        { variantId: mug, quantity: 1 },
      ],
    });
    const view = CheckoutSession.parse(toCheckoutSession(session, demo.site));
    const [mugPrice, totePrice] = [await price(mug, 'se'), await price(tote, 'se')];
    expect(view).toMatchObject({ status: 'open', market: 'se', locale: 'sv-SE', currency: 'SEK', email: null, deliveryOption: null });
    expect(view.lines.map((l) => [l.variantId, l.quantity, l.title])).toEqual([
      // titled in the session's locale, option values too
      [mug, 3, 'Fjord keramikmugg — Vit'],
      [tote, 1, 'Tygkasse i linne — Natur'],
    ]);
    const subtotal = mugPrice * 3 + totePrice;
    expect(session).toMatchObject({ subtotal, shipping: null, total: subtotal, tax: Math.round((subtotal * 2500) / 12500) });
    expect(view.checkoutUrl).toBe(`https://shop.example/checkout/${session.id}`);
    expect(Date.parse(view.expiresAt) - Date.parse(view.createdAt)).toBe(TTL * 1000);
  });

  it('uses the requested market and locale; US adds tax on top (0%)', async () => {
    const mug = await variant('demo', 'fjord-ceramic-mug', 'White');
    const de = await create({ lines: [{ variantId: mug, quantity: 1 }], market: 'DE', locale: 'en-de' });
    expect(de).toMatchObject({ marketId: 'de', locale: 'en-DE', currency: 'EUR', subtotal: await price(mug, 'de') });
    expect(de.lines[0]!.title).toBe('Fjord Ceramic Mug — White');
    const us = await create({ lines: [{ variantId: mug, quantity: 2 }], market: 'us', email: 'kim@example.com' });
    expect(us).toMatchObject({ currency: 'USD', locale: 'en-US', tax: 0, total: 2 * (await price(mug, 'us')), email: 'kim@example.com' });
  });

  it.each([
    ['unknown market', { market: 'jp' }, 'unknown_market', '/market'],
    ['locale not in the market', { market: 'us', locale: 'sv-SE' }, 'unsupported_locale', '/locale'],
  ])('%s → %s', async (_name, extra, code, pointer) => {
    const mug = await variant('demo', 'fjord-ceramic-mug', 'White');
    const error = await failure(create({ lines: [{ variantId: mug, quantity: 1 }], ...extra }));
    expect(error.code).toBe(code);
    expect(error.options.errors?.[0]?.pointer).toBe(pointer);
  });

  it('reports every line with an unknown, unpublished or other-Site variant at once', async () => {
    const lines = [
      { variantId: await variant('demo', 'fjord-ceramic-mug', 'White'), quantity: 1 },
      { variantId: 'var_doesnotexist', quantity: 1 },
      { variantId: await variant('demo', 'draft-winter-parka'), quantity: 1 },
      { variantId: await variant('outlet', 'linen-tote-bag'), quantity: 1 },
      { variantId: 'var_doesnotexist', quantity: 2 },
    ];
    const error = await failure(create({ lines }));
    expect(error.code).toBe('unknown_variant');
    expect(error.options.errors!.map((e) => e.pointer)).toEqual([
      '/lines/1/variantId',
      '/lines/2/variantId',
      '/lines/3/variantId',
      '/lines/4/variantId',
    ]);
  });

  it('refuses lines that cannot be sold now, pointing at each, and lets preorders through', async () => {
    const sand = await variant('demo', 'fjord-ceramic-mug', 'Sand'); // 3 left, deny
    const lines = [
      { variantId: await variant('demo', 'aurora-wool-throw'), quantity: 1 },
      { variantId: await variant('demo', 'fjord-ceramic-mug', 'White'), quantity: 1 },
      { variantId: sand, quantity: 2 },
      { variantId: sand, quantity: 2 }, // merged: 4 > 3
    ];
    const error = await failure(create({ lines }));
    expect(error.code).toBe('insufficient_stock');
    expect(error.options.errors!.map((e) => e.pointer)).toEqual(['/lines/0/variantId', '/lines/2/variantId', '/lines/3/variantId']);
    await expect(create({ lines: [{ variantId: sand, quantity: 3 }] })).resolves.toMatchObject({ status: 'open' });
    await expect(create({ lines: [{ variantId: await variant('demo', 'polar-down-jacket', 'XL'), quantity: 99 }] })).resolves.toMatchObject(
      { status: 'open' },
    );
  });
});

describe('reading and patching', () => {
  it("hides other Sites' and malformed ids", async () => {
    const session = await create({ lines: [{ variantId: await variant('demo', 'fjord-ceramic-mug', 'White'), quantity: 1 }] });
    for (const [site, id] of [
      [outlet.site, session.id],
      [demo.site, 'cs_'],
      [demo.site, "cs_x' or 1=1 --"],
      [demo.site, session.id.toUpperCase()],
    ] as const) {
      expect((await failure(getCheckoutSession(database, site, id))).code).toBe('not_found');
    }
    expect((await failure(updateCheckoutSession(database, outlet.site, session.id, { email: 'a@b.se' }, {}))).code).toBe('not_found');
  });

  it('merges fields, normalises, honours If-Match and bumps the ETag', async () => {
    const session = await create({ lines: [{ variantId: await variant('demo', 'fjord-ceramic-mug', 'White'), quantity: 1 }] });
    const etag = sessionEtag(session);
    const patched = await updateCheckoutSession(
      database,
      demo.site,
      session.id,
      { email: 'kim@example.com', shippingAddress: address() },
      { ifMatch: etag },
    );
    expect(patched).toMatchObject({
      email: 'kim@example.com',
      revision: session.revision + 1,
      shippingAddress: { postalCode: '111 51', country: 'SE' },
    });
    expect(sessionEtag(patched)).not.toBe(etag);
    const stale = await failure(updateCheckoutSession(database, demo.site, session.id, { phone: '+46701234567' }, { ifMatch: etag }));
    expect(stale.code).toBe('precondition_failed');
    const merged = await updateCheckoutSession(database, demo.site, session.id, { phone: '+46701234567' }, {});
    expect(merged).toMatchObject({ email: 'kim@example.com', phone: '+46701234567', shippingAddress: { city: 'Stockholm' } });
    const cleared = await updateCheckoutSession(database, demo.site, session.id, { shippingAddress: null }, {});
    expect(cleared.shippingAddress).toBeNull();
  });

  it('keeps the revision when a PATCH changes nothing', async () => {
    const session = await create({ lines: [{ variantId: await variant('demo', 'fjord-ceramic-mug', 'White'), quantity: 1 }] });
    const patched = await updateCheckoutSession(
      database,
      demo.site,
      session.id,
      { email: 'kim@example.com', shippingAddress: address() },
      {},
    );
    for (const same of [{}, { email: 'kim@example.com' }, { shippingAddress: address() }, { billingAddress: null }]) {
      const again = await updateCheckoutSession(database, demo.site, session.id, same, { ifMatch: sessionEtag(patched) });
      expect(again.revision).toBe(patched.revision);
    }
    expect((await findSession(database, demo.site.id, session.id)).revision).toBe(patched.revision);
    const changed = await updateCheckoutSession(
      database,
      demo.site,
      session.id,
      { email: 'kim.l@example.com' },
      { ifMatch: sessionEtag(patched) },
    );
    expect(changed.revision).toBe(patched.revision + 1);
  });

  it("refuses an address outside the session's market", async () => {
    const session = await create({ lines: [{ variantId: await variant('demo', 'fjord-ceramic-mug', 'White'), quantity: 1 }] });
    const error = await failure(
      updateCheckoutSession(
        database,
        demo.site,
        session.id,
        { billingAddress: address({ country: 'DE', postalCode: '10115', city: 'Berlin' }) },
        {},
      ),
    );
    expect(error.code).toBe('country_not_in_market');
    expect(error.options.errors![0]!.pointer).toBe('/billingAddress/country');
  });

  it('loses no update under concurrent PATCHes', async () => {
    const session = await create({ lines: [{ variantId: await variant('demo', 'fjord-ceramic-mug', 'White'), quantity: 1 }] });
    const etag = sessionEtag(session);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        updateCheckoutSession(database, demo.site, session.id, { email: `racer${i}@example.com` }, { ifMatch: etag }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').map((r) => ((r as PromiseRejectedResult).reason as DomainError).code)).toEqual(
      Array(7).fill('precondition_failed'),
    );
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        updateCheckoutSession(database, demo.site, session.id, i % 2 ? { email: `e${i}@example.com` } : { phone: `+4670000000${i}` }, {}),
      ),
    );
    expect((await findSession(database, demo.site.id, session.id)).revision).toBe(session.revision + 1 + 8);
  });
});

describe('expiry', () => {
  it('reads an open session past expiresAt as expired, records it, and refuses changes with session_expired', async () => {
    const t0 = Date.UTC(2030, 0, 1);
    const session = await create({ lines: [{ variantId: await variant('demo', 'fjord-ceramic-mug', 'White'), quantity: 1 }] }, t0);
    expect((await getCheckoutSession(database, demo.site, session.id, { now: t0 + TTL * 1000 - 1 })).status).toBe('open');
    const read = await getCheckoutSession(database, demo.site, session.id, { now: t0 + TTL * 1000 });
    expect(read).toMatchObject({ status: 'expired', revision: session.revision + 1 });
    const [row] = await database.select().from(checkoutSessions).where(eq(checkoutSessions.id, session.id));
    expect(row!.status).toBe('expired');
    expect((await failure(updateCheckoutSession(database, demo.site, session.id, { email: 'a@b.se' }, { now: t0 }))).code).toBe(
      'session_expired',
    );
    expect((await failure(prepareCheckoutPayment(database, demo.site, session.id, {}, { now: t0 }))).code).toBe('session_expired');
  });

  it('expires a session on its first write after expiresAt, without applying the write', async () => {
    const t0 = Date.UTC(2030, 0, 1);
    const session = await create({ lines: [{ variantId: await variant('demo', 'fjord-ceramic-mug', 'White'), quantity: 1 }] }, t0);
    const later = t0 + TTL * 1000 + 5;
    expect((await failure(changeCheckoutCountry(database, demo.site, session.id, 'DE', { now: later }))).code).toBe('session_expired');
    expect(await findSession(database, demo.site.id, session.id)).toMatchObject({ status: 'expired', marketId: 'se' });
  });
});
