import { and, asc, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { bundleItems, bundlePrices, bundles, inventoryLevels, products, productVariants, sites, variantPrices } from '@/db/schema';
import { authenticateCredential, createCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import { DomainError } from '@/lib/platform/errors';
import { allocateBundlePrice, changeCheckoutCountry, createCheckoutSession, toCheckoutSession } from '@/lib/commerce/checkout';
import { findSession } from '@/lib/commerce/checkout/session-storage';
import { CheckoutSession, CreateCheckoutSessionBody } from '@/lib/contract/checkout';
import { freshDatabase } from './support/database';

let database: Database;
let demo: SiteContext;
let outlet: SiteContext;
/** "Coffee for two": 2 × mug White, 1 × dripper White, 1 × coffee 250 g; 549.00 SEK, 54.90 EUR. */
let coffeeForTwo: { id: string; items: { variantId: string; quantity: number }[] };

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, 'expected the call to fail').toBeInstanceOf(DomainError);
  return error as DomainError;
}

/** Each Site context's credential: a request authenticates afresh (and so reads the catalog version now). */
const tokens = new Map<SiteContext, string>();

const create = async (context: SiteContext, body: unknown) => {
  const now = (await authenticateCredential(database, tokens.get(context)!))!;
  return createCheckoutSession(database, now, CreateCheckoutSessionBody.parse(body), { ttlSeconds: 3600 });
};

async function price(variantId: string, market: string): Promise<number> {
  const [row] = await database
    .select()
    .from(variantPrices)
    .where(and(eq(variantPrices.variantId, variantId), eq(variantPrices.marketId, market)));
  return row!.amount;
}

async function variant(productHandle: string, title: string): Promise<string> {
  const [row] = await database
    .select({ id: productVariants.id })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .innerJoin(sites, eq(sites.id, products.siteId))
    .where(and(eq(sites.handle, 'demo'), eq(products.handle, productHandle), eq(productVariants.title, title)));
  return row!.id;
}

/** Runs `body` with a changed row and puts it back afterwards, so tests stay independent. */
async function withStock(variantId: string, quantity: number, body: () => Promise<void>) {
  const [before] = await database.select().from(inventoryLevels).where(eq(inventoryLevels.variantId, variantId));
  await database.update(inventoryLevels).set({ quantity, policy: 'deny' }).where(eq(inventoryLevels.variantId, variantId));
  try {
    await body();
  } finally {
    await database
      .update(inventoryLevels)
      .set({ quantity: before!.quantity, policy: before!.policy })
      .where(eq(inventoryLevels.variantId, variantId));
  }
}

beforeAll(async () => {
  ({ database } = await freshDatabase());
  const context = async (siteHandle: string) => {
    const { token } = await createCredential(database, { siteHandle, scope: 'extended' });
    const made = (await authenticateCredential(database, token))!;
    tokens.set(made, token);
    return made;
  };
  demo = await context('demo');
  outlet = await context('outlet');
  const [bundle] = await database.select({ id: bundles.id }).from(bundles).where(eq(bundles.title, 'Coffee for two'));
  const items = await database.select().from(bundleItems).where(eq(bundleItems.bundleId, bundle!.id)).orderBy(asc(bundleItems.position));
  coffeeForTwo = { id: bundle!.id, items: items.map((i) => ({ variantId: i.variantId, quantity: i.quantity })) };
  // The seed generates some items' stock (the dripper may be sold out): these tests set their own.
  await database
    .update(inventoryLevels)
    .set({ quantity: 50, policy: 'deny' })
    .where(
      inArray(
        inventoryLevels.variantId,
        items.map((i) => i.variantId),
      ),
    );
});

describe('allocating a bundle price', () => {
  it.each([
    [
      'equal weights, odd price',
      100,
      [
        [1, 1],
        [1, 1],
        [1, 1],
      ],
    ],
    [
      'proportional to price × quantity',
      54900,
      [
        [24900, 2],
        [34900, 1],
        [12900, 1],
      ],
    ],
    [
      'quantities that cannot all divide',
      1001,
      [
        [500, 2],
        [500, 4],
      ],
    ],
    [
      'a free item',
      999,
      [
        [0, 1],
        [1000, 3],
      ],
    ],
    [
      'all items free',
      7,
      [
        [0, 2],
        [0, 1],
      ],
    ],
    [
      'zero price',
      0,
      [
        [100, 1],
        [200, 2],
      ],
    ],
    [
      'large amounts (BigInt inside)',
      9_000_000_000_000,
      [
        [4_000_000_000_000, 1],
        [3_000_000_000_001, 7],
      ],
    ],
  ] as const)('%s: integers that sum exactly, each close to its proportional share', (_name, total, spec) => {
    const items = spec.map(([unitPrice, quantity]) => ({ unitPrice, quantity }));
    const shares = allocateBundlePrice(total, items);
    expect(shares.every((s) => Number.isSafeInteger(s) && s >= 0)).toBe(true);
    expect(shares.reduce((a, b) => a + b, 0)).toBe(total);
    const free = items.every((i) => i.unitPrice === 0);
    const weights = items.map((i) => (free ? 1 : i.unitPrice) * i.quantity);
    const base = weights.reduce((a, b) => a + b, 0);
    const slack = items.reduce((n, i) => n + i.quantity, 0);
    shares.forEach((share, k) => expect(Math.abs(share - (total * weights[k]!) / base)).toBeLessThanOrEqual(slack));
  });

  it('keeps each share a multiple of its quantity when it can, so unit price × quantity is the total', () => {
    const shares = allocateBundlePrice(54901, [
      { unitPrice: 24900, quantity: 2 },
      { unitPrice: 34900, quantity: 1 },
    ]);
    expect(shares[0]! % 2).toBe(0);
    expect(shares[0]! + shares[1]!).toBe(54901);
  });

  it('an item worth more gets more', () => {
    const [cheap, dear] = allocateBundlePrice(10000, [
      { unitPrice: 100, quantity: 1 },
      { unitPrice: 300, quantity: 1 },
    ]);
    expect([cheap, dear]).toEqual([2500, 7500]);
  });
});

describe('checkout sessions with bundles', () => {
  it("names a bundle in the session's language: its own title there, else the title as written", async () => {
    const titleIn = async (locale: string) => {
      const session = await create(demo, { lines: [], bundles: [{ bundleId: coffeeForTwo.id, quantity: 1 }], locale });
      return CheckoutSession.parse(toCheckoutSession(session, demo.site)).lines[0]!.title;
    };
    expect(await titleIn('sv-SE')).toMatch(/ \(Kaffe för två\)$/);
    expect(await titleIn('en-SE')).toMatch(/ \(Coffee for two\)$/);
  });

  it('charges the bundle price: one line per item, allocated in proportion, subtotal = bundle price × quantity', async () => {
    const session = await create(demo, { lines: [], bundles: [{ bundleId: coffeeForTwo.id, quantity: 2 }] });
    const view = CheckoutSession.parse(toCheckoutSession(session, demo.site));
    expect(session.subtotal).toBe(2 * 54900);
    expect(view.totals.subtotal).toEqual({ amount: '1098.00', currency: 'SEK' });
    expect(view.lines.map((l) => [l.variantId, l.quantity])).toEqual(coffeeForTwo.items.map((i) => [i.variantId, i.quantity * 2]));
    // Named in the session's language: the Site's default, Swedish.
    expect(view.lines.every((l) => l.title.endsWith(' (Kaffe för två)'))).toBe(true);
    const own = await Promise.all(coffeeForTwo.items.map(async (i) => (await price(i.variantId, 'se')) * i.quantity));
    const ownTotal = own.reduce((a, b) => a + b, 0);
    session.lines.forEach((line, k) => {
      expect(Math.abs(line.total - (2 * 54900 * own[k]!) / ownTotal)).toBeLessThanOrEqual(2 * 4);
      expect(line.unitPrice * line.quantity).toBe(line.total);
    });
  });

  it('keeps bundle lines apart from plain lines of the same variant, stored with their bundle', async () => {
    const mug = coffeeForTwo.items[0]!.variantId;
    const session = await create(demo, { lines: [{ variantId: mug, quantity: 1 }], bundles: [{ bundleId: coffeeForTwo.id, quantity: 1 }] });
    expect(session.lines.filter((l) => l.variantId === mug).map((l) => [l.quantity, l.bundleId])).toEqual([
      [1, null],
      [2, coffeeForTwo.id],
    ]);
    expect(session.subtotal).toBe((await price(mug, 'se')) + 54900);
    const stored = await findSession(database, demo.site.id, session.id);
    expect(stored.lines.map((l) => [l.bundleId, l.bundleQuantity])).toEqual([
      [null, null],
      ...coffeeForTwo.items.map(() => [coffeeForTwo.id, 1]),
    ]);
  });

  it('folds repeated entries of one bundle', async () => {
    const session = await create(demo, {
      lines: [],
      bundles: [
        { bundleId: coffeeForTwo.id, quantity: 1 },
        { bundleId: coffeeForTwo.id, quantity: 2 },
      ],
    });
    expect(session.lines).toHaveLength(coffeeForTwo.items.length);
    expect(session.subtotal).toBe(3 * 54900);
  });

  it("answers 422 unknown_variant at the bundle for an unknown, another Site's or an unpriced bundle", async () => {
    const bogus = await failure(
      create(demo, {
        lines: [],
        bundles: [
          { bundleId: coffeeForTwo.id, quantity: 1 },
          { bundleId: 'bun_doesnotexist', quantity: 1 },
        ],
      }),
    );
    expect(bogus.code).toBe('unknown_variant');
    expect(bogus.options.errors).toEqual([expect.objectContaining({ pointer: '/bundles/1/bundleId', code: 'unknown_variant' })]);

    const foreign = await failure(create(outlet, { lines: [], bundles: [{ bundleId: coffeeForTwo.id, quantity: 1 }] }));
    expect(foreign.code).toBe('unknown_variant');
    expect(foreign.options.errors?.map((e) => e.pointer)).toEqual(['/bundles/0/bundleId']);

    const [usPrice] = await database
      .select()
      .from(bundlePrices)
      .where(and(eq(bundlePrices.bundleId, coffeeForTwo.id), eq(bundlePrices.marketId, 'us')));
    await database.delete(bundlePrices).where(and(eq(bundlePrices.bundleId, coffeeForTwo.id), eq(bundlePrices.marketId, 'us')));
    try {
      expect((await failure(create(demo, { lines: [], market: 'us', bundles: [{ bundleId: coffeeForTwo.id, quantity: 1 }] }))).code).toBe(
        'unknown_variant',
      );
    } finally {
      await database.insert(bundlePrices).values(usPrice!);
    }
  });

  it('answers 422 when an item of the bundle is unpublished', async () => {
    const [dripper] = await database
      .select({ id: products.id })
      .from(products)
      .innerJoin(productVariants, eq(productVariants.productId, products.id))
      .where(eq(productVariants.id, coffeeForTwo.items[1]!.variantId));
    await database.update(products).set({ status: 'draft' }).where(eq(products.id, dripper!.id));
    try {
      const error = await failure(create(demo, { lines: [], bundles: [{ bundleId: coffeeForTwo.id, quantity: 1 }] }));
      expect(error.code).toBe('unknown_variant');
      expect(error.options.errors?.map((e) => e.pointer)).toEqual(['/bundles/0/bundleId']);
    } finally {
      await database.update(products).set({ status: 'published' }).where(eq(products.id, dripper!.id));
    }
  });

  it('answers 409 insufficient_stock at the bundle when an item is short, counting plain lines of the same variant', async () => {
    const mug = coffeeForTwo.items[0]!.variantId; // 2 per bundle
    await withStock(mug, 3, async () => {
      const short = await failure(create(demo, { lines: [], bundles: [{ bundleId: coffeeForTwo.id, quantity: 2 }] }));
      expect(short.code).toBe('insufficient_stock');
      expect(short.options.errors?.map((e) => e.pointer)).toEqual(['/bundles/0/bundleId']);
      // 2 for the bundle + 2 plain = 4 > 3: both are named.
      const together = await failure(
        create(demo, { lines: [{ variantId: mug, quantity: 2 }], bundles: [{ bundleId: coffeeForTwo.id, quantity: 1 }] }),
      );
      expect(together.options.errors?.map((e) => e.pointer)).toEqual(['/lines/0/variantId', '/bundles/0/bundleId']);
      expect((await create(demo, { lines: [], bundles: [{ bundleId: coffeeForTwo.id, quantity: 1 }] })).subtotal).toBe(54900);
    });
  });

  it('change-country re-allocates the bundle price in EUR', async () => {
    const mug = await variant('fjord-ceramic-mug', 'Sand');
    const session = await create(demo, { lines: [{ variantId: mug, quantity: 1 }], bundles: [{ bundleId: coffeeForTwo.id, quantity: 3 }] });
    const { session: moved, quote } = await changeCheckoutCountry(database, demo.site, session.id, 'DE');
    expect(quote.warnings).toEqual([]);
    expect(moved.currency).toBe('EUR');
    const bundled = moved.lines.filter((l) => l.bundleId === coffeeForTwo.id);
    expect(bundled.map((l) => l.quantity)).toEqual(coffeeForTwo.items.map((i) => i.quantity * 3));
    expect(bundled.reduce((n, l) => n + l.total, 0)).toBe(3 * 5490);
    expect(moved.subtotal).toBe(3 * 5490 + (await price(mug, 'de')));
    expect(bundled.every((l) => l.bundleQuantity === 3 && Number.isInteger(l.unitPrice))).toBe(true);
  });

  it('change-country drops every line of a bundle not sold in the new market, with a warning each', async () => {
    const session = await create(demo, { lines: [], bundles: [{ bundleId: coffeeForTwo.id, quantity: 1 }] });
    const [usPrice] = await database
      .select()
      .from(bundlePrices)
      .where(and(eq(bundlePrices.bundleId, coffeeForTwo.id), eq(bundlePrices.marketId, 'us')));
    await database.delete(bundlePrices).where(and(eq(bundlePrices.bundleId, coffeeForTwo.id), eq(bundlePrices.marketId, 'us')));
    try {
      const { session: moved, quote } = await changeCheckoutCountry(database, demo.site, session.id, 'US');
      expect(moved.lines).toEqual([]);
      expect(moved.subtotal).toBe(0);
      expect(quote.warnings.map((w) => [w.variantId, w.code])).toEqual(coffeeForTwo.items.map((i) => [i.variantId, 'not_sold_in_market']));
    } finally {
      await database.insert(bundlePrices).values(usPrice!);
    }
  });
});

describe('the create body', () => {
  it.each([
    ['neither lines nor bundles', { lines: [] }, false],
    ['bundles only', { lines: [], bundles: [{ bundleId: 'bun_x', quantity: 1 }] }, true],
    ['an empty bundles list and no lines', { lines: [], bundles: [] }, false],
    ['21 bundles', { lines: [], bundles: Array.from({ length: 21 }, (_, i) => ({ bundleId: `bun_${i}`, quantity: 1 })) }, false],
    ['quantity 0', { lines: [], bundles: [{ bundleId: 'bun_x', quantity: 0 }] }, false],
    ['quantity 100', { lines: [], bundles: [{ bundleId: 'bun_x', quantity: 100 }] }, false],
    ['a price smuggled in', { lines: [], bundles: [{ bundleId: 'bun_x', quantity: 1, price: 1 }] }, false],
    [
      'one bundle folded past 99',
      {
        lines: [],
        bundles: [
          { bundleId: 'bun_x', quantity: 60 },
          { bundleId: 'bun_x', quantity: 40 },
        ],
      },
      false,
    ],
  ])('%s', (_name, body, ok) => {
    expect(CreateCheckoutSessionBody.safeParse(body).success).toBe(ok);
  });
});

describe('the storefront cart cookie with bundles', () => {
  it('round-trips bundles next to lines, validated, merged and bounded, never with a price', async () => {
    const { parseCart, serializeCart, withBundleQuantity, itemCount, isCartEmpty } = await import('@/app/(storefront)/_lib/cart-codec');
    const extra = Array.from({ length: 25 }, (_, i) => `bun_n${i}~1~some-product`);
    const cart = parseCart(
      [
        'nonce_123456',
        'var_a~2',
        'bun_a~1~morning-coffee-set',
        'bun_a~2~morning-coffee-set',
        'bun_b~500~x',
        'bun_c~1~Bad_Handle',
        'bun_d~1~ok~549.00',
        'bun_e~0~ok',
        ...extra,
      ].join('.'),
    );
    expect(cart.lines).toEqual([{ variantId: 'var_a', quantity: 2 }]);
    expect(cart.bundles.slice(0, 2)).toEqual([
      { bundleId: 'bun_a', productHandle: 'morning-coffee-set', quantity: 3 },
      { bundleId: 'bun_b', productHandle: 'x', quantity: 99 },
    ]);
    expect(cart.bundles).toHaveLength(20);
    expect(parseCart(serializeCart(cart))).toEqual(cart);
    expect(itemCount(cart)).toBe(2 + 3 + 99 + 18);

    const only = withBundleQuantity(parseCart('nonce_123456'), { bundleId: 'bun_a', productHandle: 'p' }, 2);
    expect(isCartEmpty(only)).toBe(false);
    expect(serializeCart(only)).toBe('nonce_123456.bun_a~2~p');
    expect(isCartEmpty(withBundleQuantity(only, { bundleId: 'bun_a', productHandle: 'p' }, 0))).toBe(true);
  });
});

describe('the storefront cart cookie with product handles on lines', () => {
  it('keeps the product a line was added from (marked with !), and still reads lines without one', async () => {
    const { parseCart, serializeCart, withQuantity } = await import('@/app/(storefront)/_lib/cart-codec');
    const cart = parseCart(
      [
        'nonce_123456',
        'var_a~2~!linen-tote-bag',
        'var_b~1',
        'var_a~1',
        'var_c~1~!Bad_Handle',
        'var_d~1~!',
        'bun_a~1~morning-coffee-set',
      ].join('.'),
    );
    expect(cart.lines).toEqual([
      { variantId: 'var_a', quantity: 3, productHandle: 'linen-tote-bag' },
      { variantId: 'var_b', quantity: 1 },
    ]);
    expect(cart.bundles).toEqual([{ bundleId: 'bun_a', productHandle: 'morning-coffee-set', quantity: 1 }]);
    expect(serializeCart(cart)).toBe('nonce_123456.var_a~3~!linen-tote-bag.var_b~1.bun_a~1~morning-coffee-set');
    expect(parseCart(serializeCart(cart))).toEqual(cart);
    // A handle-less line learns its handle when merged with one that has it.
    expect(parseCart('nonce_123456.var_b~1.var_b~1~!fjord-ceramic-mug').lines).toEqual([
      { variantId: 'var_b', quantity: 2, productHandle: 'fjord-ceramic-mug' },
    ]);

    // Setting a quantity keeps the handle; an add records it; a malformed one is not kept.
    expect(withQuantity(cart, 'var_a', 5).lines[0]).toEqual({ variantId: 'var_a', quantity: 5, productHandle: 'linen-tote-bag' });
    expect(withQuantity(cart, 'var_b', 2, 'fjord-ceramic-mug').lines[1]).toEqual({
      variantId: 'var_b',
      quantity: 2,
      productHandle: 'fjord-ceramic-mug',
    });
    expect(withQuantity(cart, 'var_new', 1, 'Not A Handle').lines[2]).toEqual({ variantId: 'var_new', quantity: 1 });
    expect(withQuantity(cart, 'var_a', 0).lines.map((l) => l.variantId)).toEqual(['var_b']);
  });
});
