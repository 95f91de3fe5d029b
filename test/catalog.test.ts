import { rmSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, type Database } from '@/db';
import { inventoryLevels, products, productVariants, sites, variantPrices } from '@/db/schema';
import { authenticateCredential, createCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import {
  getCollection,
  getPublishedProduct,
  listCatalog,
  listCollections,
  listProducts,
  readStorefrontSnapshot,
} from '@/lib/commerce/catalog';
import { readAvailabilityBatch, readVariantAvailability } from '@/lib/commerce/availability';
import { chooseMarket } from '@/lib/commerce/markets';
import { DomainError } from '@/lib/platform/errors';
import { Product } from '@/lib/contract/catalog';
import { freshDatabase } from './support/database';

let dir: string;
let database: Database;
let demo: SiteContext['site'];
let outlet: SiteContext['site'];

async function siteFor(handle: string) {
  const { token } = await createCredential(database, { siteHandle: handle, scope: 'core' });
  return (await authenticateCredential(database, token))!.site;
}

/** The Site row as a request would see it now (catalogVersion fresh from the database). */
async function fresh(site: SiteContext['site']) {
  const [row] = await database.select({ v: sites.catalogVersion }).from(sites).where(eq(sites.id, site.id));
  return { ...site, catalogVersion: row!.v };
}

beforeAll(async () => {
  ({ database, dir } = await freshDatabase());
  demo = await siteFor('demo');
  outlet = await siteFor('outlet');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function expectCode(promise: Promise<unknown>, code: string) {
  await expect(promise).rejects.toSatisfy((e) => e instanceof DomainError && e.code === code);
}

describe('the published rule', () => {
  it('hides drafts and archived products from product reads, lists, catalog and collections', async () => {
    const se = await chooseMarket(database, demo, {});
    await expectCode(getPublishedProduct(database, demo, 'draft-winter-parka', se), 'not_found');
    await expectCode(getPublishedProduct(database, demo, 'retired-enamel-kettle', se), 'not_found');
    const listed = (await listProducts(database, demo, se, { limit: 100 })).data.map((p) => p.handle);
    const catalog = (await listCatalog(database, demo, se, { limit: 250 })).data.map((p) => p.handle);
    const unpublished = await database
      .select({ handle: products.handle })
      .from(products)
      .where(and(eq(products.siteId, demo.id), eq(products.status, 'draft')));
    expect(unpublished.length).toBeGreaterThan(0);
    for (const { handle } of unpublished) {
      expect(listed).not.toContain(handle);
      expect(catalog).not.toContain(handle);
    }
    for (const c of (await listCollections(database, demo, se, { limit: 100 })).data) {
      const members = (await getCollection(database, demo, c.handle, se, { limit: 100 })).products.map((p) => p.handle);
      for (const { handle } of unpublished) expect(members).not.toContain(handle);
    }
  });

  it('makes a product vanish everywhere the moment it is unpublished, and its variants too', async () => {
    const se = await chooseMarket(database, demo, {});
    const tote = await getPublishedProduct(database, demo, 'linen-tote-bag', se);
    const variantId = tote.variants[0]!.id;
    await database.update(products).set({ status: 'archived' }).where(eq(products.id, tote.id));
    try {
      // as the next request sees it: the Site row (and its catalog version) read fresh
      await expectCode(getPublishedProduct(database, await fresh(demo), 'linen-tote-bag', se), 'not_found');
      await expectCode(readVariantAvailability(database, demo.id, variantId), 'not_found');
      expect((await readAvailabilityBatch(database, demo.id, [variantId])).notFound).toEqual([variantId]);
    } finally {
      await database.update(products).set({ status: 'published' }).where(eq(products.id, tote.id));
    }
  });
});

describe('pricing per market', () => {
  it('shows the stored minor units of each market, in its currency, never converted', async () => {
    const [variant] = await database
      .select({ id: productVariants.id })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(and(eq(products.siteId, demo.id), eq(products.handle, 'fjord-ceramic-mug')))
      .limit(1);
    const prices = await database.select().from(variantPrices).where(eq(variantPrices.variantId, variant!.id));
    for (const [market, currency] of [
      ['se', 'SEK'],
      ['de', 'EUR'],
      ['us', 'USD'],
    ] as const) {
      const choice = await chooseMarket(database, demo, { market });
      const product = Product.parse(await getPublishedProduct(database, demo, 'fjord-ceramic-mug', choice));
      const shown = product.variants.find((v) => v.id === variant!.id)!;
      const stored = prices.find((p) => p.marketId === market)!.amount;
      expect(shown.price).toEqual({ amount: (stored / 100).toFixed(2), currency });
    }
  });

  it('defaults market and locale, and rejects what a market does not offer', async () => {
    expect((await chooseMarket(database, demo, {})).locale).toBe('sv-SE');
    expect((await chooseMarket(database, demo, { market: 'de' })).locale).toBe('de-DE');
    expect((await chooseMarket(database, demo, { market: 'de', locale: 'EN-de' })).locale).toBe('en-DE');
    await expectCode(chooseMarket(database, demo, { market: 'fr' }), 'unknown_market');
    await expectCode(chooseMarket(database, demo, { market: 'us', locale: 'sv-SE' }), 'unsupported_locale');
    await expectCode(chooseMarket(database, outlet, { market: 'de' }), 'unknown_market');
  });
});

describe('availability', () => {
  it('reads every coarse status from the seeded stock', async () => {
    const se = await chooseMarket(database, demo, {});
    const statuses = new Set<string>();
    for (const handle of ['fjord-ceramic-mug', 'polar-down-jacket', 'aurora-wool-throw']) {
      (await getPublishedProduct(database, demo, handle, se)).variants.forEach((v) => statuses.add(v.availability));
    }
    expect([...statuses].sort()).toEqual(['in_stock', 'low_stock', 'out_of_stock', 'preorder']);
  });

  it('follows a stock change immediately and folds duplicates in a batch', async () => {
    const se = await chooseMarket(database, demo, {});
    const throwVariant = (await getPublishedProduct(database, demo, 'aurora-wool-throw', se)).variants[0]!;
    expect((await readVariantAvailability(database, demo.id, throwVariant.id)).status).toBe('out_of_stock');
    await database.update(inventoryLevels).set({ quantity: 40 }).where(eq(inventoryLevels.variantId, throwVariant.id));
    try {
      const batch = await readAvailabilityBatch(database, demo.id, [throwVariant.id, throwVariant.id, 'var_missing']);
      expect(batch.data).toEqual([{ variantId: throwVariant.id, status: 'in_stock', purchasable: true, canSubscribe: false }]);
      expect(batch.notFound).toEqual(['var_missing']);
    } finally {
      await database.update(inventoryLevels).set({ quantity: 0 }).where(eq(inventoryLevels.variantId, throwVariant.id));
    }
    await expectCode(
      readAvailabilityBatch(
        database,
        demo.id,
        Array.from({ length: 101 }, (_, i) => `v${i}`),
      ),
      'too_many_variant_ids',
    );
  });
});

describe('Site isolation', () => {
  it("never returns another Site's product, even with the same handle", async () => {
    const se = await chooseMarket(database, demo, {});
    const outletSe = await chooseMarket(database, outlet, {});
    const a = await getPublishedProduct(database, demo, 'linen-tote-bag', se);
    const b = await getPublishedProduct(database, outlet, 'linen-tote-bag', outletSe);
    expect(a.id).not.toBe(b.id);
    expect(
      (
        await readAvailabilityBatch(
          database,
          demo.id,
          b.variants.map((v) => v.id),
        )
      ).data,
    ).toEqual([]);
  });
});

describe('the storefront snapshot', () => {
  it('has a version that changes with a price change and only then', async () => {
    const before = await readStorefrontSnapshot(database, await fresh(demo), {});
    const same = await readStorefrontSnapshot(database, await fresh(demo), {});
    expect(same.version).toBe(before.version);
    const featured = before.featured[0]!;
    const [variant] = await database
      .select({ id: productVariants.id })
      .from(productVariants)
      .where(eq(productVariants.productId, featured.id))
      .limit(1);
    await database
      .update(variantPrices)
      .set({ amount: 12345 })
      .where(and(eq(variantPrices.variantId, variant!.id), eq(variantPrices.marketId, 'se')));
    const after = await readStorefrontSnapshot(database, await fresh(demo), {});
    expect(after.version).not.toBe(before.version);
    expect(
      after.featured[0]!.priceRange.min.amount === '123.45' ||
        after.featured[0]!.priceRange.max.amount === '123.45' ||
        after.featured[0]!.priceRange.min.amount < '123.45',
    ).toBe(true);
    expect(after.navigation.length).toBeGreaterThanOrEqual(5);
  });
});

describe('pagination', () => {
  it('pages through every published product exactly once in handle order', async () => {
    const se = await chooseMarket(database, demo, {});
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listProducts(database, demo, se, { limit: 9, cursor });
      seen.push(...page.data.map((p) => p.handle));
      cursor = page.page.nextCursor ?? undefined;
    } while (cursor);
    const published = await database
      .select({ handle: products.handle })
      .from(products)
      .where(and(eq(products.siteId, demo.id), eq(products.status, 'published')));
    expect(seen).toEqual(published.map((p) => p.handle).sort());
  });

  it('shows every listed product with its first image', async () => {
    const se = await chooseMarket(database, demo, {});
    const { data } = await listProducts(database, demo, se, { limit: 100 });
    const full = await getPublishedProduct(database, demo, data[0]!.handle, se);
    expect(data.every((p) => p.featuredImage !== null)).toBe(true);
    expect(data[0]!.featuredImage).toEqual(full.images[0]);
  });
});

describe('variant images', () => {
  it('give each variant the product image that shows it, in the product and in the catalog feed', async () => {
    const se = await chooseMarket(database, demo, {});
    const mug = await getPublishedProduct(database, demo, 'fjord-ceramic-mug', se);
    // The default locale is sv-SE: options read in Swedish, pictures still found by the stored (English) values.
    const byColor = Object.fromEntries(mug.variants.map((v) => [v.options['Färg'], v.image?.url]));
    expect(byColor).toEqual({ Vit: '/products/mug-white.svg', Sand: '/products/mug-sand.svg', Midnattsblå: '/products/mug-midnight.svg' });
    const { data } = await listCatalog(database, demo, se, { limit: 100, variantIds: mug.variants.map((v) => v.id) });
    expect(data.map((p) => p.handle)).toEqual(['fjord-ceramic-mug']);
    expect(data[0]!.variants.map((v) => v.image)).toEqual(mug.variants.map((v) => v.image));
  });

  it('are described in the language asked for, wherever an image is shown, else as written', async () => {
    const alts = async (choice: { market?: string; locale?: string }) => {
      const chosen = await chooseMarket(database, demo, choice);
      const mug = await getPublishedProduct(database, demo, 'fjord-ceramic-mug', chosen);
      const listed = (await listProducts(database, demo, chosen, { limit: 100 })).data.find((p) => p.handle === 'fjord-ceramic-mug')!;
      const kitchen = await getCollection(database, demo, 'kitchen', chosen, { limit: 1 });
      return {
        images: mug.images.map((i) => i.alt),
        variant: mug.variants.map((v) => v.image?.alt),
        listed: listed.featuredImage?.alt,
        collection: kitchen.image?.alt,
        navigation: (await listCollections(database, demo, chosen, { limit: 100 })).data.find((c) => c.handle === 'kitchen')!.image?.alt,
      };
    };
    expect(await alts({ market: 'se', locale: 'sv-SE' })).toEqual({
      images: ['Fjord keramikmugg i vit', 'Fjord keramikmugg i sand', 'Fjord keramikmugg i midnattsblå'],
      variant: ['Fjord keramikmugg i vit', 'Fjord keramikmugg i sand', 'Fjord keramikmugg i midnattsblå'],
      listed: 'Fjord keramikmugg i vit',
      collection: 'Kök',
      navigation: 'Kök',
    });
    expect((await alts({ market: 'de', locale: 'de-DE' })).images[0]).toBe('Fjord Keramikbecher in Weiß');
    // English has no entry of its own: the alt text as written.
    expect(await alts({ market: 'se', locale: 'en-SE' })).toMatchObject({
      images: ['Fjord Ceramic Mug in white', 'Fjord Ceramic Mug in sand', 'Fjord Ceramic Mug in midnight blue'],
      collection: 'Kitchen',
    });
  });

  it('are null when no image names the variant (one picture for every size)', async () => {
    const se = await chooseMarket(database, demo, {});
    const coffee = await getPublishedProduct(database, demo, 'nordic-roast-coffee', se);
    expect(coffee.images.length).toBeGreaterThan(0);
    expect(coffee.variants.every((v) => v.image === null)).toBe(true);
  });
});

describe('the demo bundles', () => {
  it('can all be bought: every item of every bundle on morning-coffee-set is in stock', async () => {
    const se = await chooseMarket(database, demo, {});
    const set = await getPublishedProduct(database, await fresh(demo), 'morning-coffee-set', se);
    expect(set.bundles.length).toBeGreaterThan(0);
    for (const bundle of set.bundles) {
      const batch = await readAvailabilityBatch(
        database,
        demo.id,
        bundle.items.map((i) => i.variantId),
      );
      expect(batch.notFound).toEqual([]);
      expect(batch.data.every((d) => d.purchasable && d.status !== 'preorder')).toBe(true);
    }
  });

  it('are titled in the language asked for, else as written', async () => {
    const titles = async (query: { market?: string; locale?: string }) =>
      (await getPublishedProduct(database, await fresh(demo), 'morning-coffee-set', await chooseMarket(database, demo, query))).bundles.map(
        (b) => b.title,
      );
    expect(await titles({ locale: 'sv-SE' })).toEqual(['Kaffe för två', 'Helgbrunch-kit']);
    expect(await titles({ market: 'de', locale: 'de-DE' })).toEqual(['Kaffee für zwei', 'Wochenend-Brunch-Set']);
    expect(await titles({ locale: 'en-SE' })).toEqual(['Coffee for two', 'Weekend brunch kit']);
  });

  it('name the product of every item, so a front end reads only those products to show them', async () => {
    const se = await chooseMarket(database, demo, {});
    const set = await getPublishedProduct(database, await fresh(demo), 'morning-coffee-set', se);
    const items = set.bundles.flatMap((b) => b.items);
    expect(new Set(items.map((i) => i.productHandle))).toEqual(
      new Set(['fjord-ceramic-mug', 'slow-brew-dripper', 'nordic-roast-coffee', 'stoneware-serving-bowl']),
    );
    for (const item of items) {
      const owner = await getPublishedProduct(database, demo, item.productHandle, se);
      expect(
        owner.variants.map((v) => v.id),
        item.productHandle,
      ).toContain(item.variantId);
    }
  });
});

describe('a product\'s collections (for "more from this collection")', () => {
  /** Brute force: the published collections holding the product, in navigation order, titled in the locale or the fallback. */
  async function expected(productHandle: string, locale: string, fallback: string) {
    const rows = (
      await execute(database, {
        sql: `select c.handle, coalesce(own.title, fb.title, c.handle) as title from collection_products cp
              join collections c on c.id = cp.collection_id and c.status = 'published'
              join products p on p.id = cp.product_id
              left join collection_translations own on own.collection_id = c.id and own.locale = ?
              left join collection_translations fb on fb.collection_id = c.id and fb.locale = ?
            where p.site_id = ? and p.handle = ? order by c.position, c.id`,
        args: [locale, fallback, demo.id, productHandle],
      })
    ).rows;
    return rows.map((r) => ({ handle: String(r.handle), title: String(r.title) }));
  }

  it('are the published collections holding it, in navigation order, titled in the requested locale', async () => {
    const handles = (
      await execute(database, {
        sql: `select handle from products where site_id = ? and status = 'published' order by handle limit 40`,
        args: [demo.id],
      })
    ).rows.map((r) => String(r.handle));
    let inSome = 0;
    for (const locale of ['sv-SE', 'en-SE']) {
      const se = await chooseMarket(database, demo, { locale });
      for (const handle of handles) {
        const product = await getPublishedProduct(database, await fresh(demo), handle, se).catch(() => null);
        if (!product) continue;
        expect(product.collections, `${handle} in ${locale}`).toEqual(await expected(handle, locale, demo.defaultLocale));
        if (product.collections.length > 0) inSome += 1;
      }
    }
    expect(inSome).toBeGreaterThan(5);
  });

  it('leave out a collection the moment it is unpublished', async () => {
    const se = await chooseMarket(database, demo, {});
    const before = await getPublishedProduct(database, await fresh(demo), 'fjord-ceramic-mug', se);
    const first = before.collections[0]!;
    await execute(database, {
      sql: `update collections set status = 'draft' where site_id = ? and handle = ?`,
      args: [demo.id, first.handle],
    });
    try {
      const after = await getPublishedProduct(database, await fresh(demo), 'fjord-ceramic-mug', se);
      expect(after.collections.map((c) => c.handle)).toEqual(before.collections.slice(1).map((c) => c.handle));
    } finally {
      await execute(database, {
        sql: `update collections set status = 'published' where site_id = ? and handle = ?`,
        args: [demo.id, first.handle],
      });
    }
  });
});
