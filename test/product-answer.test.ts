import { rmSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, type Database } from '@/db';
import { marketLocales, products } from '@/db/schema';
import { authenticateCredential, createCredential } from '@/lib/platform/auth/credentials';
import { getPublishedProduct } from '@/lib/commerce/catalog';
import { chooseMarket } from '@/lib/commerce/markets';
import { Product } from '@/lib/contract/catalog';
import { DomainError } from '@/lib/platform/errors';
import { stringifyWithLinks } from '@/lib/http/links';
import { freshDatabase } from './support/database';

// In production a product's kept answer is sent as the catalog builds it, without its
// schema's parse (lib/api/route.ts, keptAnswer). That holds only while the built answer is
// exactly what the parse would make of it: same fields, same values, nothing extra.

let dir: string;
let database: Database;

beforeAll(async () => {
  ({ database, dir } = await freshDatabase({ seed: { products: 120 } }));
});
afterAll(() => {
  closeDatabase(database);
  rmSync(dir, { recursive: true, force: true });
});

describe("a product's answer as built", () => {
  it("is its schema's parse, for every product of the demo in every market and locale", async () => {
    const { token } = await createCredential(database, { siteHandle: 'demo', scope: 'core' });
    const { site } = (await authenticateCredential(database, token))!;
    const choices = await database.select().from(marketLocales).where(eq(marketLocales.siteId, site.id));
    const handles = (
      await database
        .select({ handle: products.handle })
        .from(products)
        .where(and(eq(products.siteId, site.id), eq(products.status, 'published')))
    ).map((r) => r.handle);
    expect(choices.length).toBeGreaterThan(2);
    expect(handles.length).toBeGreaterThan(100);
    let compared = 0;
    let withBundles = 0;
    let withCollections = 0;
    for (const { marketId, locale } of choices) {
      const choice = await chooseMarket(database, site, { market: marketId, locale });
      for (const handle of handles) {
        let built: Product;
        try {
          built = await getPublishedProduct(database, site, handle, choice);
        } catch (error) {
          // not sold in this market: an answer of its own, not kept
          if (error instanceof DomainError && error.code === 'not_sold_in_market') continue;
          throw error;
        }
        const origin = 'https://shop.example';
        expect(stringifyWithLinks(built, origin), `${handle} in ${marketId}/${locale}`).toBe(
          stringifyWithLinks(Product.parse(built), origin),
        );
        compared += 1;
        if (built.bundles.length > 0) withBundles += 1;
        if (built.collections.length > 0) withCollections += 1;
      }
    }
    // the comparison covered the answers' every part
    expect(compared).toBeGreaterThan(handles.length * 2);
    expect(withBundles).toBeGreaterThan(0);
    expect(withCollections).toBeGreaterThan(0);
  });
});
