import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { eq, getTableName } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, openDatabase, type Database } from '@/db';
import { migrateDatabase } from '@/db/migrate';
import * as schema from '@/db/schema';
import { seedDatabase } from '@/db/seed';
import { getPublishedProduct, listCollections } from '@/lib/commerce/catalog';
import {
  catalogDocumentText,
  descriptionFromHtml,
  documentSource,
  exportCatalog,
  exportCatalogTo,
  importCatalog,
  parseCatalogDocument,
  parseStockArgs,
  readCatalogDocument,
  readShopifyCsv,
  shopifySource,
  stockSource,
  type CatalogIssue,
} from '@/lib/commerce/catalog/transfer';
import { authenticateCredential, createCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import { DomainError } from '@/lib/platform/errors';
import { chooseMarket } from '@/lib/commerce/markets';
import { catalogJsonSchemaText, type CatalogDocument } from '@/lib/contract/catalog-document';
import { PRODUCT_SLICE } from '@/lib/commerce/catalog/transfer/state';
import { contentDigest } from './support/database';
import { CATALOG_TABLES } from '@/db/seed';

const ROOT = new URL('..', import.meta.url).pathname;
const dirs: string[] = [];

async function freshDatabase(products = 0): Promise<Database> {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-transfer-'));
  dirs.push(dir);
  const url = `file:${join(dir, 'site.db')}`;
  const database = openDatabase({ url });
  await migrateDatabase(database);
  await seedDatabase(database, { products });
  return database;
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function version(database: Database, handle = 'demo'): Promise<number> {
  const [row] = await database.select({ v: schema.sites.catalogVersion }).from(schema.sites).where(eq(schema.sites.handle, handle));
  return row!.v;
}

async function site(database: Database, handle = 'demo'): Promise<SiteContext['site']> {
  const { token } = await createCredential(database, { siteHandle: handle, scope: 'core' });
  return (await authenticateCredential(database, token))!.site;
}

/** A product as the API shows it right now (the Site row read afresh, as a request does). */
async function shown(database: Database, handle: string, market?: string) {
  const s = await site(database);
  return getPublishedProduct(database, s, handle, await chooseMarket(database, s, { market }));
}

async function importText(database: Database, text: string, options: { dryRun?: boolean; prune?: boolean } = {}) {
  const parsed = await parseCatalogDocument(text);
  if (!parsed.ok) return parsed;
  return importCatalog(database, documentSource(parsed.doc, parsed.lines), { siteHandle: 'demo', ...options });
}

/** The demo Site's products with the benchmark catalog's added. */
const PRODUCTS = PRODUCT_SLICE + 60;

const clone = (doc: CatalogDocument): CatalogDocument => JSON.parse(JSON.stringify(doc)) as CatalogDocument;

describe('export and import of the catalog document', () => {
  let database: Database;
  let original: string;
  beforeAll(async () => {
    // more products than one slice (PRODUCT_SLICE), so reading and comparing in slices is exercised
    database = await freshDatabase(PRODUCTS - 49);
    original = await catalogDocumentText(await exportCatalog(database, 'demo'));
  });

  it('exports the same bytes read whole or in slices (as the command does)', async () => {
    const parts: string[] = [];
    const counts = await exportCatalogTo(database, 'demo', (chunk) => void parts.push(chunk));
    expect(counts).toEqual({ products: PRODUCTS, collections: 7 });
    expect(parts.join('')).toBe(original);
    expect(parts.length).toBeGreaterThan(PRODUCTS);
  });

  it('round-trips: export → import into an empty Site of a fresh database → export gives the same bytes', async () => {
    const other = await freshDatabase();
    for (const table of CATALOG_TABLES) await execute(other, `DELETE FROM "${getTableName(table)}"`);
    const result = await importText(other, original);
    expect(result.ok && result.plan.products.created).toBe(PRODUCTS);
    expect(await catalogDocumentText(await exportCatalog(other, 'demo'))).toBe(original);
    // everything the file holds is there: bundles, collections in order, texts per locale
    const doc = JSON.parse(original) as CatalogDocument;
    expect(doc.products.some((p) => p.bundles.length > 0)).toBe(true);
    // bundle titles in the other languages travel too
    expect(doc.products.find((p) => p.handle === 'morning-coffee-set')!.bundles[0]).toMatchObject({
      title: 'Coffee for two',
      titles: { 'de-DE': 'Kaffee für zwei', 'sv-SE': 'Kaffe för två' },
    });
    // and so do images' alt texts, a product's and a collection's
    expect(doc.products.find((p) => p.handle === 'fjord-ceramic-mug')!.images[0]).toMatchObject({
      alt: 'Fjord Ceramic Mug in white',
      alts: { 'de-DE': expect.stringContaining('Weiß'), 'sv-SE': expect.stringContaining('vit') },
    });
    expect(doc.collections.find((c) => c.handle === 'kitchen')!.image).toMatchObject({
      alt: 'Kitchen',
      alts: { 'de-DE': 'Küche', 'sv-SE': 'Kök' },
    });
    expect(doc.collections.length).toBe(7);
    expect(Object.keys(doc.products[0]!.texts)).toEqual(['de-DE', 'en-DE', 'en-SE', 'en-US', 'sv-SE']);
  });

  it('importing the same file again changes nothing, and the catalog version does not move', async () => {
    const before = await version(database);
    const hash = await contentDigest(database);
    for (let i = 0; i < 2; i += 1) {
      const result = await importText(database, original);
      expect(result.ok && result.applied).toBe(false);
      expect(result.ok && result.plan.rowWrites).toBe(0);
      expect(result.ok && result.plan.products.unchanged).toBe(PRODUCTS);
    }
    expect(await version(database)).toBe(before);
    expect(await contentDigest(database)).toBe(hash);
  });

  it('a dry run plans the change and writes nothing', async () => {
    const doc = clone(JSON.parse(original) as CatalogDocument);
    doc.products.find((p) => p.handle === 'fjord-ceramic-mug')!.variants[0]!.prices.se!.amount = '123.00';
    doc.products.push({
      ...clone(doc).products[0]!,
      handle: 'brand-new-lamp',
      variants: doc.products[0]!.variants.map((v) => ({ ...v, sku: `NEW-${v.sku}` })),
      bundles: [],
    });
    const hash = await contentDigest(database);
    const before = await version(database);
    const result = await importText(database, JSON.stringify(doc), { dryRun: true });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.applied).toBe(false);
    expect(result.plan.products).toMatchObject({ created: 1, updated: 1 });
    expect(result.plan.variants.updated).toBe(1);
    expect(result.plan.rowWrites).toBeGreaterThan(0);
    expect(await contentDigest(database)).toBe(hash);
    expect(await version(database)).toBe(before);
  });

  it('applies edits in one go, keeps ids of what exists, and the API shows them at once', async () => {
    const doc = clone(JSON.parse(original) as CatalogDocument);
    const mugBefore = await shown(database, 'fjord-ceramic-mug');
    const mugDeBefore = await shown(database, 'fjord-ceramic-mug', 'de');
    const mug = doc.products.find((p) => p.handle === 'fjord-ceramic-mug')!;
    mug.variants[0]!.prices.se = { amount: '149.50', currency: 'SEK', compareAt: '199.00' };
    mug.variants[0]!.stock!.quantity = 77;
    mug.texts['sv-SE']!.title = 'Fjord-mugg, ny glasyr';
    mug.images.reverse();
    mug.images[0]!.alts = { ...mug.images[0]!.alts, 'sv-SE': 'Fjord-mugg med ny glasyr' };
    const kitchen = doc.collections.find((c) => c.handle === 'kitchen')!;
    kitchen.products.reverse();
    const versionBefore = await version(database);

    const result = await importText(database, JSON.stringify(doc));
    expect(result.ok && result.applied).toBe(true);
    if (!result.ok) return;
    expect(result.plan.products).toMatchObject({ updated: 1, created: 0 });
    expect(result.plan.collections).toMatchObject({ updated: 1 });
    expect(result.catalogVersion.after).toBeGreaterThan(versionBefore);

    const after = await shown(database, 'fjord-ceramic-mug');
    expect(after.id).toBe(mugBefore.id);
    expect(after.variants.map((v) => v.id)).toEqual(mugBefore.variants.map((v) => v.id));
    expect(after.title).toBe('Fjord-mugg, ny glasyr');
    expect(after.variants[0]!.price).toEqual({ amount: '149.50', currency: 'SEK' });
    expect(after.variants[0]!.compareAtPrice).toEqual({ amount: '199.00', currency: 'SEK' });
    expect(after.variants[0]!.availability).toBe('in_stock');
    expect(after.images.map((i) => i.url)).toEqual([...mugBefore.images].reverse().map((i) => i.url));
    // the Site's default locale is sv-SE: the new Swedish alt text is what it shows
    expect(after.images[0]!.alt).toBe('Fjord-mugg med ny glasyr');
    // variants still find their image by the alt text as written
    expect(after.variants.map((v) => v.image?.url)).toEqual(mugBefore.variants.map((v) => v.image?.url));
    expect(after.variants.every((v) => v.image !== null)).toBe(true);
    expect(after.updatedAt).not.toBe(mugBefore.updatedAt);
    // the other markets' prices were in the file unchanged, and stay
    expect((await shown(database, 'fjord-ceramic-mug', 'de')).variants[0]!.price).toEqual(mugDeBefore.variants[0]!.price);
    const exported = await exportCatalog(database, 'demo');
    expect(exported.collections.find((c) => c.handle === 'kitchen')!.products).toEqual(kitchen.products);
    original = await catalogDocumentText(exported);
  });

  it('a file without stock keeps the stock the shop has now (sales since the export count)', async () => {
    const doc = clone(JSON.parse(original) as CatalogDocument);
    const mug = doc.products.find((p) => p.handle === 'fjord-ceramic-mug')!;
    for (const v of mug.variants) delete v.stock;
    mug.texts['en-SE']!.description = 'Rewritten while the shop sold mugs.';
    mug.variants.push({
      ...clone(doc).products.find((p) => p.handle === 'fjord-ceramic-mug')!.variants[0]!,
      sku: 'MUG-NEW-1',
      stock: undefined,
    });
    mug.options = mug.options.map((o) => ({ ...o, values: [...o.values, 'Extra'] }));
    mug.variants.at(-1)!.options = Object.fromEntries(mug.options.map((o) => [o.name, 'Extra']));
    mug.variants.at(-1)!.title = 'Extra';
    const [first] = await database.select().from(schema.productVariants).where(eq(schema.productVariants.sku, mug.variants[0]!.sku));
    await database.update(schema.inventoryLevels).set({ quantity: 3 }).where(eq(schema.inventoryLevels.variantId, first!.id)); // a sale

    const result = await importText(database, JSON.stringify(doc));
    expect(result.ok && result.plan.variants).toMatchObject({ created: 1, updated: 0 });
    const [level] = await database.select().from(schema.inventoryLevels).where(eq(schema.inventoryLevels.variantId, first!.id));
    expect(level!.quantity).toBe(3);
    const shownNow = await shown(database, 'fjord-ceramic-mug');
    expect(shownNow.variants.at(-1)).toMatchObject({ sku: 'MUG-NEW-1', availability: 'out_of_stock' });
    original = await catalogDocumentText(await exportCatalog(database, 'demo'));
  });

  it('--prune unpublishes what the file leaves out and deletes nothing', async () => {
    const doc = clone(JSON.parse(original) as CatalogDocument);
    const dropped = doc.products.splice(
      doc.products.findIndex((p) => p.handle === 'linen-tote-bag'),
      1,
    )[0]!;
    doc.collections = doc.collections.filter((c) => c.handle !== 'lighting');
    const variantsBefore = (await database.select().from(schema.productVariants)).length;

    // without --prune, what is missing is left alone (the collections named get the file's order)
    const kept = await importText(database, JSON.stringify(doc));
    expect(kept.ok && kept.plan.products).toMatchObject({ unpublished: 0, updated: 0, created: 0 });
    expect(kept.ok && kept.plan.collections.unpublished).toBe(0);
    expect((await shown(database, 'linen-tote-bag')).handle).toBe('linen-tote-bag');

    const result = await importText(database, JSON.stringify(doc), { prune: true });
    expect(result.ok && result.plan.products.unpublished).toBe(1);
    expect(result.ok && result.plan.collections.unpublished).toBe(1);
    const [row] = await database.select().from(schema.products).where(eq(schema.products.handle, dropped.handle));
    expect(row?.status).toBe('archived');
    expect((await database.select().from(schema.productVariants)).length).toBe(variantsBefore);
    await expect(shown(database, 'linen-tote-bag')).rejects.toBeInstanceOf(DomainError);
    const s = await site(database);
    const nav = await listCollections(database, s, await chooseMarket(database, s, {}), { limit: 50 });
    expect(nav.data.map((c) => c.handle)).not.toContain('lighting');

    // the original file publishes them again
    const back = await importText(database, original);
    expect(back.ok && back.plan.products.updated).toBe(1);
    expect((await shown(database, 'linen-tote-bag')).handle).toBe('linen-tote-bag');
  });

  it('refuses an invalid file whole, naming every error with its pointer, handle and field', async () => {
    const doc = clone(JSON.parse(original) as CatalogDocument) as unknown as {
      products: Record<string, unknown>[];
      collections: Record<string, unknown>[];
    };
    const p = (i: number) => doc.products[i] as unknown as CatalogDocument['products'][number];
    p(0).handle = 'Bad Handle';
    p(1).variants[0]!.sku = p(2).variants[0]!.sku; // duplicate SKU
    p(3).variants[0]!.prices.se!.currency = 'EUR';
    p(4).variants[0]!.prices.se!.amount = '10.005';
    (p(5).texts as Record<string, unknown>)['fr-FR'] = p(5).texts['sv-SE'];
    p(6).images[0]!.url = 'ftp://example.com/x.png';
    p(7).images[0]!.width = 0;
    p(8).handle = p(9).handle; // duplicate handle
    p(10).variants[0]!.prices.jp = { amount: '100', currency: 'JPY' };
    p(11).variants[0]!.prices.se!.compareAt = '1.00';
    (doc.collections[0]!.products as string[]).push('no-such-product');
    const withBundles = doc.products.findIndex((x) => (x as unknown as CatalogDocument['products'][number]).bundles.length > 0);
    p(withBundles).bundles[0]!.titles = { 'fr-FR': 'Café pour deux' };
    p(12).images[0]!.alts = { 'fr-FR': 'Une image' };
    (doc.collections[1]!.image as { alts?: Record<string, string> }).alts = { 'nb-NO': 'Et bilde' };
    const hash = await contentDigest(database);

    // the schema's errors come first, all of them; the Site's checks need a valid file
    const schemaErrors = await importText(database, JSON.stringify(doc, null, 2));
    expect(schemaErrors.ok).toBe(false);
    const first = (schemaErrors as { issues: CatalogIssue[] }).issues;
    expect(first.map((i) => [i.pointer, i.field])).toEqual(
      expect.arrayContaining([
        ['/products/0/handle', 'handle'],
        ['/products/6/images/0/url', 'url'],
        ['/products/7/images/0/width', 'width'],
      ]),
    );
    expect(first.find((i) => i.pointer === '/products/6/images/0/url')!.handle).toBe(p(6).handle);
    expect(first.filter((i) => !(i.line !== undefined && i.line > 1))).toEqual([]);

    p(0).handle = 'fine-handle';
    p(6).images[0]!.url = '/products/fine.svg';
    p(7).images[0]!.width = 800;
    const result = await importText(database, JSON.stringify(doc, null, 2));
    expect(result.ok).toBe(false);
    const issues = (result as { issues: CatalogIssue[] }).issues;
    const at = (pointer: string) => issues.find((i) => i.pointer === pointer);
    expect(at('/products/1/variants/0/sku')?.expected ?? at('/products/2/variants/0/sku')?.expected).toMatch(/SKU used once/);
    expect(at('/products/3/variants/0/prices/se/currency')).toMatchObject({ handle: p(3).handle, field: 'currency' });
    // the line each offending product starts on, as the file was written
    const text = JSON.stringify(doc, null, 2);
    const productLine = (i: number) => text.split('\n').findIndex((l) => l.includes(`"handle": "${p(i).handle}"`));
    expect(at('/products/3/variants/0/prices/se/currency')!.line).toBe(productLine(3));
    expect(at('/products/3/variants/0/prices/se/currency')!.expected).toMatch(/SEK/);
    expect(at('/products/4/variants/0/prices/se/amount')!.expected).toMatch(/at most 2 decimals/);
    expect(at('/products/5/texts/fr-FR')!.expected).toMatch(/locale of Site "demo"/);
    expect(at(`/products/${withBundles}/bundles/0/titles/fr-FR`)).toMatchObject({
      field: 'titles',
      expected: expect.stringMatching(/locale of Site "demo"/),
    });
    expect(at('/products/12/images/0/alts/fr-FR')).toMatchObject({
      handle: p(12).handle,
      field: 'alts',
      expected: expect.stringMatching(/locale of Site "demo"/),
    });
    expect(at('/collections/1/image/alts/nb-NO')).toMatchObject({ handle: doc.collections[1]!.handle, field: 'alts' });
    expect(at('/products/9/handle')!.expected).toMatch(/used once in the file/);
    expect(at('/products/10/variants/0/prices/jp')!.expected).toMatch(/market of Site "demo"/);
    expect(at('/products/11/variants/0/prices/se/compareAt')!.expected).toMatch(/not below the price/);
    const member = issues.find((i) => i.pointer.startsWith('/collections/0/products/'));
    expect(member).toMatchObject({ handle: doc.collections[0]!.handle, field: 'products' });
    expect(await contentDigest(database)).toBe(hash);
  });

  it('names the line of broken JSON', async () => {
    const broken = original.replace('"status": "published"', '"status": "published",,');
    const result = await parseCatalogDocument(broken);
    expect(result.ok).toBe(false);
    const issue = (result as { issues: CatalogIssue[] }).issues[0]!;
    expect(issue).toMatchObject({
      pointer: '/products/0',
      line: original.split('\n').findIndex((l) => l.includes('"status": "published"')) + 1,
    });
  });

  it('reads the same document however the stream is cut', async () => {
    const whole = await parseCatalogDocument(original);
    const pieces: string[] = [];
    for (let i = 0; i < original.length; i += 997) pieces.push(original.slice(i, i + 997));
    const cut = await readCatalogDocument(Readable.from(pieces));
    expect(whole.ok).toBe(true);
    expect(cut).toEqual(whole);
  });

  it('refuses to remove a variant a restock signup still names, and says which', async () => {
    const doc = clone(JSON.parse(original) as CatalogDocument);
    const aurora = doc.products.find((p) => p.handle === 'aurora-wool-throw')!;
    const [variant] = await database.select().from(schema.productVariants).where(eq(schema.productVariants.sku, aurora.variants[0]!.sku));
    const [flow] = await database.select().from(schema.notificationFlows).where(eq(schema.notificationFlows.handle, 'back-in-stock-email'));
    const credential = await createCredential(database, { siteHandle: 'demo', scope: 'extended' });
    await database.insert(schema.consents).values({
      id: 'con_transfer_test',
      siteId: variant!.siteId,
      purpose: 'stock_notification',
      email: 'a@example.com',
      text: 'Tell me',
      textVersion: '1',
      textHash: 'x',
      credentialId: credential.id,
      createdAt: Date.now(),
    });
    await database.insert(schema.stockSubscriptions).values({
      id: 'sub_transfer_test',
      siteId: variant!.siteId,
      variantId: variant!.id,
      flowId: flow!.id,
      email: 'a@example.com',
      status: 'active',
      consentId: 'con_transfer_test',
      locale: 'sv-SE',
      marketId: 'se',
      createdAt: Date.now(),
    });
    const removed = aurora.variants.shift()!;
    aurora.options = aurora.options.map((o) => ({
      ...o,
      values: o.values.filter((v) => aurora.variants.some((x) => x.options[o.name] === v)),
    }));
    // a value no variant has any more loses its texts too (a text for a value not in the option is refused)
    for (const texts of Object.values(aurora.texts)) {
      for (const [name, t] of Object.entries(texts.options ?? {})) {
        for (const value of Object.keys(t.values ?? {}))
          if (!aurora.options.find((o) => o.name === name)!.values.includes(value)) delete t.values![value];
      }
    }
    const result = await importText(database, JSON.stringify(doc));
    expect(result.ok).toBe(false);
    expect((result as { issues: CatalogIssue[] }).issues[0]).toMatchObject({
      handle: 'aurora-wool-throw',
      field: 'variants',
      pointer: `/products/${doc.products.indexOf(aurora)}/variants`,
    });
    expect((result as { issues: CatalogIssue[] }).issues[0]!.expected).toContain(removed.sku);
    await database.delete(schema.stockSubscriptions).where(eq(schema.stockSubscriptions.id, 'sub_transfer_test'));
    // without the signup the same file removes the variant
    const removedNow = await importText(database, JSON.stringify(doc));
    expect(removedNow.ok && removedNow.plan.variants.removed).toBe(1);
  });
});

describe('stock changes', () => {
  it('sets quantities through the import path and moves the version only when something changed', async () => {
    const database = await freshDatabase();
    const mug = await shown(database, 'fjord-ceramic-mug');
    const sku = mug.variants[0]!.sku;
    const parsed = parseStockArgs([`${sku}=0`]);
    expect(parsed.issues).toEqual([]);
    const before = await version(database);
    const result = await importCatalog(database, stockSource(parsed.changes), { siteHandle: 'demo' });
    expect(result.ok && result.plan.variants.updated).toBe(1);
    expect((await shown(database, 'fjord-ceramic-mug')).variants[0]!.availability).toBe('out_of_stock');
    const moved = await version(database);
    expect(moved).toBeGreaterThan(before);
    const again = await importCatalog(database, stockSource(parsed.changes), { siteHandle: 'demo' });
    expect(again.ok && again.applied).toBe(false);
    expect(await version(database)).toBe(moved);
  });

  it('refuses unknown SKUs and malformed arguments, writing nothing', async () => {
    const database = await freshDatabase();
    expect(parseStockArgs(['NOPE', 'X=-1', 'Y=1.5']).issues.map((i) => i.pointer)).toEqual(['/0', '/1', '/2']);
    const mug = await shown(database, 'fjord-ceramic-mug');
    const hash = await contentDigest(database);
    const result = await importCatalog(database, stockSource(parseStockArgs([`${mug.variants[0]!.sku}=3`, 'NO-SUCH-SKU=4']).changes), {
      siteHandle: 'demo',
    });
    expect(result.ok).toBe(false);
    expect((result as { issues: CatalogIssue[] }).issues).toEqual([expect.objectContaining({ pointer: '/1', field: 'sku' })]);
    expect(await contentDigest(database)).toBe(hash);
  });
});

describe('Shopify product CSV', () => {
  const FIXTURE = join(ROOT, 'test', 'fixtures', 'shopify-products.csv');

  it("turns Body (HTML) into the storefront's paragraphs, dropping scripts, frames and attributes", () => {
    const text = descriptionFromHtml(
      '<h2>Warm &amp; soft</h2><p onclick="x()">A <b>b</b> &lt;c&gt;</p><script>alert(1)</script><iframe src="e">f</iframe><ul><li>One</li><li>Two</li></ul>',
    );
    expect(text).toBe('Warm & soft\n\nA b <c>\n\n• One\n\n• Two');
  });

  it('imports multi-option variants, several images, a draft and sanitised HTML into what the API shows', async () => {
    const database = await freshDatabase();
    const csv = await readShopifyCsv(createReadStream(FIXTURE));
    expect(csv.issues).toEqual([]);
    const result = await importCatalog(database, shopifySource(csv), { siteHandle: 'demo' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.plan.products).toMatchObject({ created: 3, updated: 0 });
    expect(result.plan.variants.created).toBe(9);
    expect(result.plan.notes.join(' ')).toMatch(/Markets de, us: existing variants keep their prices there; 9 new variant\(s\) get none/);

    const sweater = await shown(database, 'nordic-wool-sweater');
    expect(sweater.title).toBe('Nordic Wool Sweater');
    expect(sweater.options).toEqual([
      { name: 'Color', values: ['Oat', 'Charcoal'] },
      { name: 'Size', values: ['S', 'M', 'L'] },
    ]);
    expect(sweater.variants.map((v) => v.title)).toEqual(['Oat / S', 'Oat / M', 'Oat / L', 'Charcoal / S', 'Charcoal / M', 'Charcoal / L']);
    expect(sweater.variants[0]).toMatchObject({
      sku: 'NWS-OAT-S',
      price: { amount: '899.00', currency: 'SEK' },
      compareAtPrice: { amount: '1099.00', currency: 'SEK' },
      availability: 'in_stock',
    });
    expect(sweater.variants[1]!.availability).toBe('out_of_stock');
    expect(sweater.variants[2]!.price.amount).toBe('949.00');
    expect(sweater.images.map((i) => i.alt)).toEqual([
      'Oat wool sweater, front',
      'Charcoal wool sweater, front',
      'Close-up of the rib knit',
    ]);
    expect(sweater.description).toContain('Knitted from undyed Gotland wool in a small mill <50 km from our studio.');
    expect(sweater.description).toContain('• Relaxed fit');
    for (const bad of ['<', 'script', 'evil', 'onclick', 'javascript', 'iframe', 'style']) {
      expect(sweater.description.replace('<50 km', ''), bad).not.toContain(bad);
    }
    expect(sweater.seo.title).toBe('Nordic Wool Sweater in Gotland wool');
    const board = await shown(database, 'birch-bread-board');
    expect(board.variants).toEqual([
      expect.objectContaining({
        sku: 'BCB-1',
        title: 'Default',
        options: {},
        price: { amount: '349.00', currency: 'SEK' },
        availability: 'in_stock',
      }),
    ]);
    await expect(shown(database, 'linen-apron-draft')).rejects.toBeInstanceOf(DomainError);
    // the new variants are not sold in the other markets until priced there (so neither is the product)
    await expect(shown(database, 'nordic-wool-sweater', 'de')).rejects.toBeInstanceOf(DomainError);

    const before = await version(database);
    const again = await importCatalog(database, shopifySource(await readShopifyCsv(createReadStream(FIXTURE))), { siteHandle: 'demo' });
    expect(again.ok && again.plan.rowWrites).toBe(0);
    expect(await version(database)).toBe(before);
  });

  it("updates an existing product's default market and locale and keeps the rest", async () => {
    const database = await freshDatabase();
    const mug = await shown(database, 'fjord-ceramic-mug');
    const mugDe = await shown(database, 'fjord-ceramic-mug', 'de');
    const header = readFileSync(FIXTURE, 'utf8').split('\n')[0]!;
    const cols = header.split(',');
    const row = (values: Record<string, string>) => cols.map((c) => values[c] ?? '').join(',');
    const csv = [
      header,
      ...mug.variants.map((v, i) =>
        row({
          Handle: 'fjord-ceramic-mug',
          Title: i === 0 ? 'Fjordmugg' : '',
          'Body (HTML)': i === 0 ? '<p>Ny text</p>' : '',
          'Option1 Name': i === 0 ? mug.options[0]!.name : '',
          'Option1 Value': v.options[mug.options[0]!.name]!,
          'Variant SKU': v.sku,
          'Variant Price': '111.00',
          Status: i === 0 ? 'active' : '',
          Published: i === 0 ? 'TRUE' : '',
        }),
      ),
    ].join('\n');
    const parsed = await readShopifyCsv(Readable.from([csv]));
    const result = await importCatalog(database, shopifySource(parsed), { siteHandle: 'demo' });
    expect(result.ok).toBe(true);
    const after = await shown(database, 'fjord-ceramic-mug');
    expect(after.title).toBe('Fjordmugg');
    expect(after.description).toBe('Ny text');
    expect(after.variants.map((v) => v.price.amount)).toEqual(mug.variants.map(() => '111.00'));
    expect(after.variants.map((v) => v.id)).toEqual(mug.variants.map((v) => v.id));
    const afterDe = await shown(database, 'fjord-ceramic-mug', 'de');
    expect(afterDe.title).toBe(mugDe.title);
    expect(afterDe.variants.map((v) => v.price)).toEqual(mugDe.variants.map((v) => v.price));
  });

  it('refuses a broken CSV with the line of each error', async () => {
    const database = await freshDatabase();
    const hash = await contentDigest(database);
    const lines = readFileSync(FIXTURE, 'utf8').trimEnd().split('\n');
    const sweaterEnd = lines.findIndex((l) => l.startsWith('nordic-wool-sweater,,,'));
    const bad = [...lines];
    bad[sweaterEnd] = bad[sweaterEnd]!.replace(',899.00,', ',12;50,'); // price
    bad[sweaterEnd + 1] = bad[sweaterEnd + 1]!.replace(',deny,', ',sometimes,'); // policy
    const parsed = await readShopifyCsv(Readable.from([bad.join('\n')]));
    expect(parsed.issues).toEqual([
      expect.objectContaining({ line: sweaterEnd + 2, field: 'Variant Inventory Policy', handle: 'nordic-wool-sweater' }),
    ]);
    // the import reports the reader's problems and the schema's together, each on its line, in its column
    const result = await importCatalog(database, shopifySource(parsed), { siteHandle: 'demo' });
    expect(result.ok).toBe(false);
    expect((result as { issues: CatalogIssue[] }).issues).toEqual([
      expect.objectContaining({ line: sweaterEnd + 1, field: 'Variant Price', handle: 'nordic-wool-sweater' }),
      expect.objectContaining({ line: sweaterEnd + 2, field: 'Variant Inventory Policy', handle: 'nordic-wool-sweater' }),
    ]);
    expect(await contentDigest(database)).toBe(hash);
  });
});

describe('the published JSON Schema', () => {
  it('is the one generated from the zod schema (npm run catalog:schema)', () => {
    expect(readFileSync(join(ROOT, 'docs', 'catalog.schema.json'), 'utf8')).toBe(catalogJsonSchemaText());
  });

  it('accepts an exported document (a file written by hand that omits defaults too)', async () => {
    const database = await freshDatabase();
    const doc = await exportCatalog(database, 'demo');
    const text = await catalogDocumentText(doc);
    const file = join(dirs[dirs.length - 1]!, 'demo.json');
    writeFileSync(file, text);
    const minimal = JSON.parse(text) as { products: Record<string, unknown>[] };
    for (const p of minimal.products) {
      delete p.bundles;
      delete p.featuredPosition;
    }
    const parsed = await parseCatalogDocument(JSON.stringify(minimal));
    expect(parsed.ok).toBe(true);
  });
});
