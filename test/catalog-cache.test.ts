import { rmSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase, type Database } from '@/db';
import {
  authEpoch,
  credentials,
  inventoryLevels,
  marketTranslations,
  productTranslations,
  products,
  rateLimitCounters,
  sites,
  variantPrices,
} from '@/db/schema';
import { authenticateCredential, createCredential, revokeCredential } from '@/lib/platform/auth/credentials';
import {
  getCollection,
  getPublishedProduct,
  listProducts,
  productKept,
  productScopes,
  readStorefrontSnapshot,
} from '@/lib/commerce/catalog';
import { BoundedCache, VersionedMemo } from '@/lib/platform/cache/memo';
import { readCatalogVariants } from '@/lib/commerce/checkout/catalog-lines';
import { readAvailabilityBatch, readAvailabilityStatuses } from '@/lib/commerce/availability';
import { chooseMarket } from '@/lib/commerce/markets';
import { DomainError } from '@/lib/platform/errors';
import { freshDatabase } from './support/database';

// The catalog caches key on the Site's catalog version, read fresh with the credential on
// every request. These tests change rows directly in the database — the way another
// instance, an import or an admin tool would — and expect the very next request to see it.

let dir: string;
let url: string;
let database: Database;
let other: Database; // a second connection, standing for another process on the same file
let token: string;

/** What a request does first: authenticate, which reads the Site (and its version) fresh. */
async function request() {
  const context = await authenticateCredential(database, token);
  if (!context) throw new Error('credential rejected');
  return context.site;
}

beforeAll(async () => {
  ({ database, dir, url } = await freshDatabase());
  other = openDatabase({ url });
  token = (await createCredential(database, { siteHandle: 'demo', scope: 'core' })).token;
});
afterAll(() => {
  closeDatabase(database);
  closeDatabase(other);
  rmSync(dir, { recursive: true, force: true });
});

async function productNow(handle: string, requested: { market?: string; locale?: string } = {}) {
  const site = await request();
  return getPublishedProduct(database, site, handle, await chooseMarket(database, site, requested));
}

describe('catalog caches', () => {
  it("keep a product's answer while nothing it shows changed, across changes to other products", async () => {
    const kept = async (handle: string, requested: { market?: string; locale?: string } = {}) => {
      const site = await request();
      const choice = await chooseMarket(database, site, requested);
      const where = (await productKept(database, site, handle, choice))!;
      return {
        where,
        entry: { validAt: where.fresh!.validAt, scopes: productScopes(await getPublishedProduct(database, site, handle, choice)) },
      };
    };
    const mug = await kept('fjord-ceramic-mug');
    const tote = await kept('linen-tote-bag');
    expect(mug.entry.scopes).toContain('product:fjord-ceramic-mug');
    // every market and language is an answer of its own
    expect(
      new Set([
        mug.where.key,
        (await kept('fjord-ceramic-mug', { market: 'de' })).where.key,
        (await kept('fjord-ceramic-mug', { locale: 'en-SE' })).where.key,
        tote.where.key,
      ]).size,
    ).toBe(4);
    const [price] = await database
      .select()
      .from(variantPrices)
      .where(and(eq(variantPrices.marketId, 'se'), eq(variantPrices.variantId, (await productNow('fjord-ceramic-mug')).variants[0]!.id)));
    await other
      .update(variantPrices)
      .set({ amount: price!.amount + 1 })
      .where(and(eq(variantPrices.variantId, price!.variantId), eq(variantPrices.marketId, 'se')));
    try {
      const now = await kept('fjord-ceramic-mug');
      expect(now.where.key).toBe(mug.where.key);
      expect(now.where.fresh!.validAt).toBeGreaterThan(mug.entry.validAt);
      // the changed product's kept answer no longer holds, another product's does
      expect(now.where.fresh!.holds(mug.entry)).toBe(false);
      expect(now.where.fresh!.holds(tote.entry)).toBe(true);
      expect(now.where.fresh!.holds(now.entry)).toBe(true);
    } finally {
      await other
        .update(variantPrices)
        .set({ amount: price!.amount })
        .where(and(eq(variantPrices.variantId, price!.variantId), eq(variantPrices.marketId, 'se')));
    }
    // a change to the whole Site (a market's texts) makes every kept answer stale
    const site = await request();
    const [text] = await database.select().from(marketTranslations).limit(1);
    await other
      .update(marketTranslations)
      .set({ name: `${text!.name} ` })
      .where(and(eq(marketTranslations.marketId, text!.marketId), eq(marketTranslations.locale, text!.locale)));
    try {
      const after = await kept('linen-tote-bag');
      expect(after.where.fresh!.holds({ validAt: site.catalogVersion, scopes: tote.entry.scopes })).toBe(false);
    } finally {
      await other
        .update(marketTranslations)
        .set({ name: text!.name })
        .where(and(eq(marketTranslations.marketId, text!.marketId), eq(marketTranslations.locale, text!.locale)));
    }
  });

  it('show a price change made by another connection on the very next request', async () => {
    const before = await productNow('fjord-ceramic-mug');
    const variant = before.variants[0]!;
    await other
      .update(variantPrices)
      .set({ amount: 4242_00 })
      .where(and(eq(variantPrices.variantId, variant.id), eq(variantPrices.marketId, 'se')));
    const after = await productNow('fjord-ceramic-mug');
    expect(after.variants[0]!.price).toEqual({ amount: '4242.00', currency: 'SEK' });
    // the other markets' answers are fresh too (same version bump)
    const de = await productNow('fjord-ceramic-mug', { market: 'de' });
    expect(de.variants[0]!.price.currency).toBe('EUR');
  });

  it('show a stock change in product reads, the availability batch and list pages at once', async () => {
    const site = await request();
    const se = await chooseMarket(database, site, {});
    const mug = await getPublishedProduct(database, site, 'fjord-ceramic-mug', se);
    const ids = mug.variants.map((v) => v.id);
    // warm every cache that shows stock
    await readAvailabilityBatch(database, site.id, ids);
    await readAvailabilityBatch(database, site, ids);
    await listProducts(database, site, se, { limit: 100 });

    for (const id of ids) await other.update(inventoryLevels).set({ quantity: 0, policy: 'deny' }).where(eq(inventoryLevels.variantId, id));

    const now = await request();
    const product = await getPublishedProduct(database, now, 'fjord-ceramic-mug', se);
    expect(product.variants.map((v) => v.availability)).toEqual(ids.map(() => 'out_of_stock'));
    for (const batch of [await readAvailabilityBatch(database, now.id, ids), await readAvailabilityBatch(database, now, ids)]) {
      expect(batch.data.map((d) => d.status)).toEqual(ids.map(() => 'out_of_stock'));
      expect(batch.data.every((d) => d.canSubscribe && !d.purchasable)).toBe(true);
    }
    const listed = (await listProducts(database, now, se, { limit: 100 })).data.find((p) => p.handle === 'fjord-ceramic-mug');
    expect(listed?.availability).toBe('out_of_stock');
  });

  it('share one frozen batch answer per set of ids while stock stands still, and a new one after a change', async () => {
    const site = await request();
    const se = await chooseMarket(database, site, {});
    const ids = (await getPublishedProduct(database, site, 'polar-down-jacket', se)).variants.map((v) => v.id);
    const first = await readAvailabilityStatuses(database, site, [...ids, 'var_nope']);
    expect(await readAvailabilityStatuses(database, await request(), [...ids, 'var_nope'])).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.data[0])).toBe(true);
    expect(first.notFound).toEqual(['var_nope']);
    const [level] = await database.select().from(inventoryLevels).where(eq(inventoryLevels.variantId, ids[0]!));
    await other.update(inventoryLevels).set({ quantity: 0, policy: 'deny' }).where(eq(inventoryLevels.variantId, ids[0]!));
    try {
      const after = await readAvailabilityStatuses(database, await request(), [...ids, 'var_nope']);
      expect(after).not.toBe(first);
      expect(after.data[0]).toMatchObject({ variantId: ids[0], status: 'out_of_stock', canSubscribe: true });
    } finally {
      await other
        .update(inventoryLevels)
        .set({ quantity: level!.quantity, policy: level!.policy })
        .where(eq(inventoryLevels.variantId, ids[0]!));
    }
  });

  it('make an unpublished product vanish from reads, pages and collections at once', async () => {
    const site = await request();
    const se = await chooseMarket(database, site, {});
    await getPublishedProduct(database, site, 'linen-tote-bag', se);
    const inCollections = async (s: typeof site) => {
      const found: string[] = [];
      for (const handle of ['textiles', 'gift-ideas', 'kitchen', 'living-room', 'outdoor', 'lighting', 'new-arrivals']) {
        try {
          const c = await getCollection(database, s, handle, se, { limit: 100 });
          if (c.products.some((p) => p.handle === 'linen-tote-bag')) found.push(handle);
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
        }
      }
      return found;
    };
    expect((await inCollections(site)).length).toBeGreaterThan(0);

    await other
      .update(products)
      .set({ status: 'draft' })
      .where(and(eq(products.siteId, site.id), eq(products.handle, 'linen-tote-bag')));
    try {
      const now = await request();
      await expect(getPublishedProduct(database, now, 'linen-tote-bag', se)).rejects.toSatisfy(
        (e) => e instanceof DomainError && e.code === 'not_found',
      );
      expect((await listProducts(database, now, se, { limit: 100 })).data.map((p) => p.handle)).not.toContain('linen-tote-bag');
      expect(await inCollections(now)).toEqual([]);
    } finally {
      await other
        .update(products)
        .set({ status: 'published' })
        .where(and(eq(products.siteId, site.id), eq(products.handle, 'linen-tote-bag')));
    }
    expect((await getPublishedProduct(database, await request(), 'linen-tote-bag', se)).handle).toBe('linen-tote-bag');
  });

  it('show a new title and a renamed market in the storefront snapshot at once', async () => {
    const site = await request();
    const before = await readStorefrontSnapshot(database, site, {});
    const featured = before.featured[0]!;
    const [row] = await other
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.siteId, site.id), eq(products.handle, featured.handle)));
    await other.update(productTranslations).set({ title: 'Brand new title' }).where(eq(productTranslations.productId, row!.id));
    // the name shown in sv-SE is its translation (market_translations), whose triggers move the version too
    await other
      .update(marketTranslations)
      .set({ name: 'Sverige (renamed)' })
      .where(and(eq(marketTranslations.siteId, site.id), eq(marketTranslations.marketId, 'se'), eq(marketTranslations.locale, 'sv-SE')));

    const after = await readStorefrontSnapshot(database, await request(), {});
    expect(after.version).not.toBe(before.version);
    expect(after.featured.find((p) => p.handle === featured.handle)?.title).toBe('Brand new title');
    expect(after.market.name).toBe('Sverige (renamed)');
  });

  it('price checkout lines at the catalog as it is now: price, stock, title and publication changes show in the next session', async () => {
    const site = await request();
    const se = await chooseMarket(database, site, {});
    const mug = await getPublishedProduct(database, site, 'fjord-ceramic-mug', se);
    const id = mug.variants[0]!.id;
    const lines = async () => readCatalogVariants(database, await request(), 'se', 'sv-SE', [id, 'var_does_not_exist']);

    const first = await lines();
    expect([...first.keys()]).toEqual([id]); // the unknown id is absent, and remembered as such
    expect(Object.isFrozen(first.get(id))).toBe(true);
    expect((await lines()).get(id)).toBe(first.get(id)); // a hit: the same frozen line

    await other
      .update(variantPrices)
      .set({ amount: 313_00 })
      .where(and(eq(variantPrices.variantId, id), eq(variantPrices.marketId, 'se')));
    expect((await lines()).get(id)!.unitPrice).toBe(313_00);

    await other.update(inventoryLevels).set({ quantity: 2, policy: 'deny' }).where(eq(inventoryLevels.variantId, id));
    expect((await lines()).get(id)!.level).toMatchObject({ quantity: 2, policy: 'deny' });

    await other
      .update(productTranslations)
      .set({ title: 'Fjord mug, renamed' })
      .where(and(eq(productTranslations.productId, mug.id), eq(productTranslations.locale, 'sv-SE')));
    expect((await lines()).get(id)!.title).toMatch(/^Fjord mug, renamed/);

    await other.update(products).set({ status: 'draft' }).where(eq(products.id, mug.id));
    expect((await lines()).has(id)).toBe(false);
    await other.update(products).set({ status: 'published' }).where(eq(products.id, mug.id));
    expect((await lines()).has(id)).toBe(true);
  });

  it('never serve a revoked credential, even right after it was used', async () => {
    const { token: doomed } = await createCredential(database, { siteHandle: 'demo', scope: 'core' });
    expect(await authenticateCredential(database, doomed)).not.toBeNull();
    expect(await authenticateCredential(database, doomed)).not.toBeNull(); // remembered now
    await revokeCredential(other, doomed);
    expect(await authenticateCredential(database, doomed)).toBeNull();
    // revoked by this same process (its writer connection) counts at once too
    const { token: also } = await createCredential(database, { siteHandle: 'demo', scope: 'core' });
    expect(await authenticateCredential(database, also)).not.toBeNull();
    await revokeCredential(database, also);
    expect(await authenticateCredential(database, also)).toBeNull();
  });

  it('see any direct change to a credential or its Site at once: scope, Site name, a row deleted, a row inserted', async () => {
    const { id, token: t } = await createCredential(database, { siteHandle: 'demo', scope: 'core' });
    expect((await authenticateCredential(database, t))!.scope).toBe('core');
    await other.update(credentials).set({ scope: 'extended' }).where(eq(credentials.id, id));
    expect((await authenticateCredential(database, t))!.scope).toBe('extended');

    const [demo] = await other.select({ id: sites.id, name: sites.name }).from(sites).where(eq(sites.handle, 'demo'));
    await other.update(sites).set({ name: 'Demo, renamed' }).where(eq(sites.id, demo!.id));
    expect((await authenticateCredential(database, t))!.site.name).toBe('Demo, renamed');
    await other.update(sites).set({ name: demo!.name }).where(eq(sites.id, demo!.id));
    expect((await authenticateCredential(database, t))!.site.name).toBe(demo!.name);

    // an unrelated commit in between changes nothing the answer depends on
    await other.insert(rateLimitCounters).values({ bucket: 'unrelated', windowStart: 0, count: 1 });
    expect((await authenticateCredential(database, t))!.scope).toBe('extended');

    const [row] = await other.select().from(credentials).where(eq(credentials.id, id));
    await other.delete(credentials).where(eq(credentials.id, id));
    expect(await authenticateCredential(database, t)).toBeNull();
    expect(await authenticateCredential(database, t)).toBeNull(); // remembered as unknown now
    await other.insert(credentials).values(row!); // an import, a restore
    expect((await authenticateCredential(database, t))!.credentialId).toBe(id);
  });

  it("without the auth epoch's row (deleted by hand) read the credential afresh on every request", async () => {
    const { token: t } = await createCredential(database, { siteHandle: 'demo', scope: 'core' });
    expect(await authenticateCredential(database, t)).not.toBeNull();
    const [row] = await other.select().from(authEpoch);
    await other.delete(authEpoch);
    try {
      expect(await authenticateCredential(database, t)).not.toBeNull();
      // with the triggers' row gone a revocation moves nothing; the answer must follow anyway
      await revokeCredential(other, t);
      expect(await authenticateCredential(database, t)).toBeNull();
    } finally {
      await other.insert(authEpoch).values(row!);
    }
  });

  it('read the catalog version afresh with the credential after any commit, from this process or another', async () => {
    const [tote] = await database
      .select({ featured: products.featuredPosition })
      .from(products)
      .where(eq(products.handle, 'linen-tote-bag'));
    const first = await request();
    expect((await request()).catalogVersion).toBe(first.catalogVersion);
    await database.update(products).set({ featuredPosition: 7 }).where(eq(products.handle, 'linen-tote-bag'));
    const second = await request();
    expect(second.catalogVersion).toBeGreaterThan(first.catalogVersion);
    await other.update(products).set({ featuredPosition: tote!.featured }).where(eq(products.handle, 'linen-tote-bag'));
    expect((await request()).catalogVersion).toBeGreaterThan(second.catalogVersion);
  });

  it('never share what a transaction read before it committed', async () => {
    const site = await request();
    const se = await chooseMarket(database, site, {});
    const mug = await getPublishedProduct(database, site, 'fjord-ceramic-mug', se);
    const variant = mug.variants[0]!;
    const rolledBack = new Error('roll back');
    await expect(
      database.transaction(async (tx) => {
        await tx
          .update(variantPrices)
          .set({ amount: 1_00 })
          .where(and(eq(variantPrices.variantId, variant.id), eq(variantPrices.marketId, 'se')));
        const inside = await getPublishedProduct(tx, site, 'fjord-ceramic-mug', se);
        expect(inside.variants[0]!.price.amount).toBe('1.00');
        expect(await productKept(tx, site, 'fjord-ceramic-mug', se)).toBeNull();
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    const outside = await getPublishedProduct(database, await request(), 'fjord-ceramic-mug', se);
    expect(outside.variants[0]!.price).toEqual(variant.price);
  });
});

describe('VersionedMemo', () => {
  it('reads only the ids it has not seen at a key, and remembers unknown ids as absent', async () => {
    const memo = new VersionedMemo<number>(4, 100);
    const asked: string[][] = [];
    const read = async (missing: string[]) => {
      asked.push(missing);
      return new Map(missing.filter((id) => id !== 'gone').map((id) => [id, id.length]));
    };
    expect(await memo.many('v1', ['a', 'bb', 'gone'], read)).toEqual(
      new Map([
        ['a', 1],
        ['bb', 2],
      ]),
    );
    expect(await memo.many('v1', ['bb', 'gone', 'ccc'], read)).toEqual(
      new Map([
        ['bb', 2],
        ['ccc', 3],
      ]),
    );
    expect(asked).toEqual([['a', 'bb', 'gone'], ['ccc']]);
    // another key (a new catalog version) reads again
    await memo.many('v2', ['a'], read);
    expect(asked.at(-1)).toEqual(['a']);
  });

  it('keeps at most maxKeys keys and starts a key again past maxIdsPerKey ids', async () => {
    const memo = new VersionedMemo<number>(2, 3);
    let reads = 0;
    const read = async (missing: string[]) => {
      reads += 1;
      return new Map(missing.map((id) => [id, 1]));
    };
    await memo.many('k1', ['a'], read);
    await memo.many('k2', ['a'], read);
    await memo.many('k3', ['a'], read); // k1 is the least recent: dropped
    expect(reads).toBe(3);
    await memo.many('k1', ['a'], read);
    expect(reads).toBe(4);
    await memo.many('k1', ['b', 'c', 'd'], read); // k1 now holds 4 ids
    expect(memo.at('k1').size).toBe(0); // past the cap: empty again
  });
});

describe('BoundedCache', () => {
  it('keeps at most maxEntries, least recently used out first', async () => {
    const cache = new BoundedCache<number>(3, 1e9);
    for (const k of ['a', 'b', 'c']) cache.set(k, 1, 1);
    cache.get('a'); // a is now the most recent
    cache.set('d', 1, 1);
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
  });

  it('keeps at most maxBytes and refuses one entry that would take a quarter of it', () => {
    const cache = new BoundedCache<string>(1000, 100);
    for (let i = 0; i < 10; i += 1) cache.set(`k${i}`, 'x', 20);
    expect(cache.size).toBe(5);
    cache.set('huge', 'x', 30);
    expect(cache.get('huge')).toBeUndefined();
  });

  it('computes once for concurrent callers and does not keep failures', async () => {
    const cache = new BoundedCache<number>(10, 1e9);
    let calls = 0;
    const compute = async () => {
      calls += 1;
      await new Promise((r) => setTimeout(r, 10));
      return 7;
    };
    expect(await Promise.all([1, 2, 3].map(() => cache.through('k', compute)))).toEqual([7, 7, 7]);
    expect(calls).toBe(1);
    await expect(
      cache.through('bad', async () => {
        throw new Error('nope');
      }),
    ).rejects.toThrow('nope');
    expect(await cache.through('bad', async () => 1)).toBe(1);
  });

  it('counts each lookup once: a miss that goes on to compute is one miss, a kept value that no longer holds is a miss', async () => {
    const cache = new BoundedCache<{ at: number }>(10, 1e9);
    const counts = () => ({ hits: cache.hits, misses: cache.misses });
    expect(await cache.through('k', async () => ({ at: 1 }))).toEqual({ at: 1 });
    expect(counts()).toEqual({ hits: 0, misses: 1 });
    expect(await cache.through('k', async () => ({ at: 2 }))).toEqual({ at: 1 });
    expect(counts()).toEqual({ hits: 1, misses: 1 });
    // stale: read again, and counted as the miss it is
    const fresh = (value: { at: number }) => value.at >= 2;
    expect(await cache.through('k', async () => ({ at: 2 }), undefined, fresh)).toEqual({ at: 2 });
    expect(counts()).toEqual({ hits: 1, misses: 2 });
    // the API's way: a lookup, then a fill only after it missed
    expect(cache.get('k', fresh)).toEqual({ at: 2 });
    expect(cache.get('other', fresh) ?? (await cache.fill('other', async () => ({ at: 3 }), undefined, fresh))).toEqual({ at: 3 });
    expect(counts()).toEqual({ hits: 2, misses: 3 });
  });
});
