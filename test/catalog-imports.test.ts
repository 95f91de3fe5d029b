import { readFileSync, rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { closeDatabase, execute, type Database } from '@/db';
import * as schema from '@/db/schema';
import {
  catalogDocumentText,
  deleteSource,
  documentSource,
  exportCatalog,
  importCatalog,
  parseCatalogDocument,
  readShopifyCsv,
  shopifySource,
  type CatalogIssue,
} from '@/lib/commerce/catalog/transfer';
import type { CatalogDocument } from '@/lib/contract/catalog-document';
import { getPublishedProduct } from '@/lib/commerce/catalog';
import { chooseMarket } from '@/lib/commerce/markets';
import { subscribeToStockNotifications } from '@/lib/commerce/signups';
import { createCheckoutSession } from '@/lib/commerce/checkout';
import { authenticateCredential, createCredential } from '@/lib/platform/auth/credentials';
import { contentDigest, freshDatabase } from './support/database';

// Issue #48, imports as a new user meets them: small files, spreadsheets with mistakes,
// a Shopify export in another language, Vendor/Type/Tags and automated collections.

let database: Database;
let dir: string;
let original: string;

beforeAll(async () => {
  ({ database, dir } = await freshDatabase());
  original = await catalogDocumentText(await exportCatalog(database, 'demo'));
});

afterAll(() => {
  closeDatabase(database);
  rmSync(dir, { recursive: true, force: true });
});

const issuesOf = (result: { ok: boolean }) => (result as unknown as { issues: CatalogIssue[] }).issues;

describe('a document', () => {
  it('with one changed product and "collections": [] is read: an empty array is an array', async () => {
    const doc = JSON.parse(original) as CatalogDocument;
    const mug = doc.products.find((p) => p.handle === 'fjord-ceramic-mug')!;
    mug.texts['sv-SE']!.title = 'Fjordmugg, ny';
    for (const spacing of [0, 2]) {
      const parsed = await parseCatalogDocument(JSON.stringify({ ...doc, products: [mug], collections: [] }, null, spacing));
      expect(parsed.ok, JSON.stringify(issuesOf(parsed))).toBe(true);
      if (!parsed.ok) return;
      expect(parsed.doc.collections).toEqual([]);
      const result = await importCatalog(database, documentSource(parsed.doc, parsed.lines), { siteHandle: 'demo', dryRun: true });
      expect(result.ok && result.plan.products).toMatchObject({ updated: 1 });
    }
    // "products": [] too; a missing list and a list that is no array are still refused
    expect((await parseCatalogDocument(JSON.stringify({ ...doc, products: [], collections: [] }))).ok).toBe(true);
    const noCollections: Partial<CatalogDocument> = { ...doc };
    delete noCollections.collections;
    expect(issuesOf(await parseCatalogDocument(JSON.stringify(noCollections)))).toEqual([
      expect.objectContaining({ pointer: '/collections', expected: expect.stringMatching(/array/) }),
    ]);
    expect(issuesOf(await parseCatalogDocument(JSON.stringify({ ...doc, collections: {} })))).toEqual([
      expect.objectContaining({ pointer: '/collections', expected: expect.stringMatching(/array/) }),
    ]);
  });
});

const FIXTURE = new URL('./fixtures/shopify-products.csv', import.meta.url).pathname;
/** The fixture's records, cells as they are (csv-parse, independent of the reader under test). */
const records = () => parse(readFileSync(FIXTURE, 'utf8'), { relax_column_count: false }) as string[][];
const header = () => records()[0]!;
/** A column's spreadsheet letter, counted here independently of the reader. */
const letterOf = (column: string) => {
  const i = header().indexOf(column);
  return i < 26 ? String.fromCharCode(65 + i) : `A${String.fromCharCode(65 + i - 26)}`;
};
const quote = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
/** The CSV text of records. */
const csvText = (rows: string[][]) => rows.map((r) => r.map(quote).join(',')).join('\n');
/** The fixture with cells of some rows (by SKU, or every row of a handle) changed. */
function editedCsv(edits: { sku?: string; handle?: string; set: Record<string, string> }[]): string {
  const cols = header();
  return csvText(
    records().map((cells, n) => {
      if (n === 0) return cells;
      const out = [...cells];
      for (const edit of edits) {
        const hit = edit.sku ? cells[cols.indexOf('Variant SKU')] === edit.sku : cells[0] === edit.handle;
        if (hit) for (const [column, value] of Object.entries(edit.set)) out[cols.indexOf(column)] = value;
      }
      return out;
    }),
  );
}
/** The line of a SKU's row (a row on one line: the tests below change only such rows). */
const lineOfSku = (sku: string) => {
  const text = csvText(records());
  return text.slice(0, text.indexOf(`,${sku},`)).split('\n').length;
};

async function importCsv(text: string, options: { locale?: string; dryRun?: boolean } = {}, target = database) {
  const csv = await readShopifyCsv(Readable.from([text]));
  return importCatalog(target, shopifySource(csv, { locale: options.locale }), { siteHandle: 'demo', dryRun: options.dryRun });
}

describe('a Shopify CSV', () => {
  it('with seven mistakes is refused once, naming all seven with their line, column name and letter', async () => {
    const hash = await contentDigest(database);
    const shopSku = (await exportCatalog(database, 'demo')).products[0]!.variants[0]!.sku;
    const text = editedCsv([
      { sku: 'BCB-1', set: { Published: 'yes' } }, // a boolean Shopify does not write
      { sku: 'NWS-OAT-M', set: { 'Variant Inventory Policy': 'sometimes' } },
      { sku: 'NWS-OAT-L', set: { 'Variant Inventory Qty': 'lots' } },
      { sku: 'NWS-CHA-S', set: { 'Variant Price': '12;50' } }, // the schema's to refuse
      { sku: 'NWS-CHA-M', set: { 'Variant Compare At Price': '1,000' } }, // ambiguous: a thousand, or 1.000?
      { sku: 'NWS-CHA-L', set: { 'Variant SKU': 'NWS-CHA-S' } }, // SKU twice: the Site check's
      { sku: 'LAP-RUS', set: { 'Variant SKU': shopSku } }, // a SKU another product of the shop has
    ]);
    const result = await importCsv(text);
    expect(result.ok).toBe(false);
    const issues = issuesOf(result);
    const expected = [
      { line: lineOfSku('NWS-OAT-M'), field: 'Variant Inventory Policy' },
      { line: lineOfSku('NWS-OAT-L'), field: 'Variant Inventory Qty' },
      { line: lineOfSku('NWS-CHA-S'), field: 'Variant Price' },
      { line: lineOfSku('NWS-CHA-M'), field: 'Variant Compare At Price' },
      { line: lineOfSku('NWS-CHA-L'), field: 'Variant SKU' },
      { line: lineOfSku('BCB-1'), field: 'Published' },
      { line: lineOfSku('LAP-RUS'), field: 'Variant SKU' },
    ];
    expect(issues.map((i) => ({ line: i.line, field: i.field }))).toEqual(expected);
    for (const issue of issues) {
      expect(issue.cell).toBe(letterOf(issue.field));
      expect(issue.pointer, 'no pointer into the document the rows became').toBe('');
    }
    expect(issues.find((i) => i.field === 'Variant Price')!.expected).toMatch(/249,00.*got "12;50"/);
    expect(issues.find((i) => i.field === 'Published')!.expected).toMatch(/TRUE or FALSE.*got "yes"/);
    expect(await contentDigest(database)).toBe(hash);
  });

  it('reads decimal commas (249,00) where they can only be decimal, and says which columns it ignored, once each', async () => {
    const text = editedCsv([
      { sku: 'BCB-1', set: { 'Variant Price': '349,50' } },
      { sku: 'NWS-OAT-S', set: { 'Variant Compare At Price': '1099,5' } },
    ]);
    const result = await importCsv(text, { dryRun: true });
    expect(result.ok, JSON.stringify(issuesOf(result))).toBe(true);
    if (!result.ok) return;
    const note = result.plan.notes.find((n) => n.startsWith('Columns ignored'))!;
    const ignored = header().filter(
      (c) =>
        ![
          'Handle',
          'Title',
          'Body (HTML)',
          'Vendor',
          'Type',
          'Tags',
          'Published',
          'Status',
          'SEO Title',
          'SEO Description',
          'Variant SKU',
          'Variant Inventory Qty',
          'Variant Inventory Policy',
          'Variant Price',
          'Variant Compare At Price',
          'Image Src',
          'Image Position',
          'Image Alt Text',
        ].includes(c) && !/^Option\d (Name|Value)$/.test(c),
    );
    expect(ignored).toContain('Variant Grams');
    expect(note).toBe(`Columns ignored (no place in this catalog): ${ignored.join(', ')}.`);
    expect(result.plan.notes.filter((n) => n.includes('Variant Grams'))).toHaveLength(1);
    const other = (await freshDatabase()).database;
    const applied = await importCsv(text, {}, other);
    expect(applied.ok).toBe(true);
    const doc = await exportCatalog(other, 'demo');
    expect(doc.products.find((p) => p.handle === 'birch-bread-board')!.variants[0]!.prices.se).toMatchObject({ amount: '349.50' });
    expect(doc.products.find((p) => p.handle === 'nordic-wool-sweater')!.variants[0]!.prices.se).toMatchObject({ compareAt: '1099.50' });
    closeDatabase(other);
  });

  it("--locale writes the file's language; the other locales keep theirs", async () => {
    const other = (await freshDatabase()).database;
    expect((await importCsv(csvText(records()), {}, other)).ok).toBe(true);
    const english = editedCsv([{ sku: 'BCB-1', set: { Title: 'Birch Bread Board (EN)' } }]);
    const result = await importCsv(english, { locale: 'en-SE' }, other);
    expect(result.ok, JSON.stringify(issuesOf(result))).toBe(true);
    const board = (await exportCatalog(other, 'demo')).products.find((p) => p.handle === 'birch-bread-board')!;
    expect(board.texts['en-SE']!.title).toBe('Birch Bread Board (EN)');
    expect(board.texts['sv-SE']!.title).toBe('Birch Bread Board');
    // a locale the Site does not offer, and a new product without its default-locale texts, are refused
    expect(issuesOf(await importCsv(english, { locale: 'fr-FR' }, other))).toContainEqual(expect.objectContaining({ field: '--locale' }));
    const renamed = editedCsv([{ handle: 'birch-bread-board', set: { Handle: 'birch-bread-board-2', 'Variant SKU': 'BCB-2' } }]);
    expect(issuesOf(await importCsv(renamed, { locale: 'en-SE' }, other))).toContainEqual(
      expect.objectContaining({ line: lineOfSku('BCB-1'), field: 'Title', expected: expect.stringMatching(/default locale sv-SE/) }),
    );
    closeDatabase(other);
  });
});

describe('a product priced only in the default market', () => {
  it('answers "not sold in your market" in the others, naming where it is sold, never 404', async () => {
    const other = (await freshDatabase()).database;
    expect((await importCsv(csvText(records()), {}, other)).ok).toBe(true);
    const { token } = await createCredential(other, { siteHandle: 'demo', scope: 'core' });
    const site = (await authenticateCredential(other, token))!.site;
    const se = await getPublishedProduct(other, site, 'nordic-wool-sweater', await chooseMarket(other, site, {}));
    expect(se.title).toBe('Nordic Wool Sweater');
    const de = getPublishedProduct(other, site, 'nordic-wool-sweater', await chooseMarket(other, site, { market: 'de', locale: 'de-DE' }));
    await expect(de).rejects.toMatchObject({
      code: 'not_sold_in_market',
      options: { extensions: { product: { handle: 'nordic-wool-sweater', title: 'Nordic Wool Sweater' }, soldIn: ['se'] } },
    });
    // a handle no published product has is still not found
    await expect(
      getPublishedProduct(other, site, 'linen-apron-draft', await chooseMarket(other, site, { market: 'de' })),
    ).rejects.toMatchObject({ code: 'not_found' });
    closeDatabase(other);
  });
});

describe('Vendor, Type and Tags', () => {
  it('are kept on the product, and automated collections (tag:, type:, vendor:) gather what they match, on every import', async () => {
    const other = (await freshDatabase()).database;
    expect((await importCsv(csvText(records()), {}, other)).ok).toBe(true);
    let doc = await exportCatalog(other, 'demo');
    expect(doc.products.find((p) => p.handle === 'nordic-wool-sweater')).toMatchObject({
      vendor: 'Nordlys',
      type: 'Sweaters',
      tags: ['wool', 'winter', 'knitwear'],
    });
    expect(doc.products.find((p) => p.handle === 'birch-bread-board')).toMatchObject({
      vendor: 'Nordlys',
      type: 'Kitchen',
      tags: ['kitchen', 'wood'],
    });

    // Shopify's automated collections, written as rules in a document
    const texts = { 'sv-SE': { title: 'Ull', description: '' } };
    const automated = [
      { handle: 'wool', status: 'published' as const, image: null, texts, rules: { match: 'all' as const, conditions: ['tag:WOOL'] } },
      {
        handle: 'nordlys-kitchen',
        status: 'published' as const,
        image: null,
        texts,
        rules: { match: 'all' as const, conditions: ['vendor:nordlys', 'type:Kitchen'] },
      },
      {
        handle: 'wood-or-sweaters',
        status: 'published' as const,
        image: null,
        texts,
        rules: { match: 'any' as const, conditions: ['tag:wood', 'type:sweaters'] },
      },
    ];
    const parsed = await parseCatalogDocument(JSON.stringify({ ...doc, products: [], collections: [...doc.collections, ...automated] }));
    expect(parsed.ok, JSON.stringify(issuesOf(parsed))).toBe(true);
    if (!parsed.ok) return;
    expect((await importCatalog(other, documentSource(parsed.doc, parsed.lines), { siteHandle: 'demo' })).ok).toBe(true);
    const members = async (handle: string) =>
      (
        await other
          .select({ handle: schema.products.handle })
          .from(schema.collectionProducts)
          .innerJoin(schema.collections, eq(schema.collections.id, schema.collectionProducts.collectionId))
          .innerJoin(schema.products, eq(schema.products.id, schema.collectionProducts.productId))
          .where(eq(schema.collections.handle, handle))
          .orderBy(schema.collectionProducts.position)
      ).map((r) => r.handle);
    expect(await members('wool')).toEqual(['nordic-wool-sweater']);
    expect(await members('nordlys-kitchen')).toEqual(['birch-bread-board', 'linen-apron-draft']);
    expect(await members('wood-or-sweaters')).toEqual(['birch-bread-board', 'nordic-wool-sweater']);

    // a later Shopify file (no collections in it) moves products in and out of them
    const retagged = editedCsv([
      { handle: 'linen-apron-draft', set: { Tags: 'linen, wool' } },
      { handle: 'birch-bread-board', set: { Type: 'Boards' } },
    ]);
    const result = await importCsv(retagged, {}, other);
    expect(result.ok, JSON.stringify(issuesOf(result))).toBe(true);
    expect(await members('wool')).toEqual(['linen-apron-draft', 'nordic-wool-sweater']);
    expect(await members('nordlys-kitchen')).toEqual(['linen-apron-draft']);

    // the export writes the rules, not the members; importing it again changes nothing
    doc = await exportCatalog(other, 'demo');
    expect(doc.collections.find((c) => c.handle === 'wool')).toMatchObject({
      rules: { match: 'all', conditions: ['tag:WOOL'] },
      products: [],
    });
    const again = await parseCatalogDocument(await catalogDocumentText(doc));
    const same = again.ok ? await importCatalog(other, documentSource(again.doc, again.lines), { siteHandle: 'demo' }) : again;
    expect(same.ok && same.plan.rowWrites).toBe(0);

    // rules and hand-picked members at once, or a rule of another kind, are refused
    const wrong = await parseCatalogDocument(
      JSON.stringify({
        ...doc,
        collections: [
          { ...automated[0], products: ['nordic-wool-sweater'] },
          { ...automated[1], handle: 'x', rules: { conditions: ['price:10'] } },
        ],
      }),
    );
    expect(issuesOf(wrong)).toEqual([expect.objectContaining({ pointer: '/collections/1/rules/conditions/0' })]);
    const both = await parseCatalogDocument(
      JSON.stringify({ ...doc, collections: [{ ...automated[0], products: ['nordic-wool-sweater'] }] }),
    );
    const refused = both.ok ? await importCatalog(other, documentSource(both.doc, both.lines), { siteHandle: 'demo' }) : both;
    expect(issuesOf(refused)).toEqual([
      expect.objectContaining({ pointer: '/collections/0/products', expected: expect.stringMatching(/rules/) }),
    ]);
    closeDatabase(other);
  });
});

describe('deleting products (npm run catalog -- delete, import --prune --delete)', () => {
  it('removes a product for real with every row of its, moves the catalog version, and refuses while something still needs it', async () => {
    const other = (await freshDatabase()).database;
    const doc = await exportCatalog(other, 'demo');
    const ownerOf = new Map(doc.products.flatMap((p) => p.variants.map((v) => [v.sku, p.handle] as const)));
    const bundled = new Set(
      doc.products.flatMap((p) =>
        p.bundles.flatMap((b) => b.items.filter((i) => ownerOf.get(i.sku) !== p.handle).map((i) => ownerOf.get(i.sku)!)),
      ),
    );
    const free = doc.products.filter((p) => !bundled.has(p.handle) && doc.collections.some((c) => c.products.includes(p.handle)));
    const [victim, signedUp, pruned] = free.map((p) => p.handle);
    const inBundle = [...bundled][0]!;
    const remove = (handles: string[], dryRun = false) => importCatalog(other, deleteSource(handles), { siteHandle: 'demo', dryRun });
    const version = async () =>
      (await other.select({ v: schema.sites.catalogVersion }).from(schema.sites).where(eq(schema.sites.handle, 'demo')))[0]!.v;

    // refused whole, nothing written: an unknown handle, a product another's bundle names, one with an open restock signup
    const hash = await contentDigest(other);
    expect(issuesOf(await remove([victim!, 'no-such-product']))).toEqual([
      expect.objectContaining({ handle: 'no-such-product', field: 'handle' }),
    ]);
    const held = issuesOf(await remove([inBundle]));
    expect(held.length).toBeGreaterThan(0);
    for (const issue of held)
      expect(issue).toMatchObject({
        handle: inBundle,
        expected: expect.stringMatching(/a bundle of another product refers to its variant/),
      });
    const { token } = await createCredential(other, { siteHandle: 'demo', scope: 'core' });
    const ctx = (await authenticateCredential(other, token))!;
    const variantId = (
      await other
        .select({ id: schema.productVariants.id })
        .from(schema.productVariants)
        .innerJoin(schema.products, eq(schema.products.id, schema.productVariants.productId))
        .where(eq(schema.products.handle, signedUp!))
    )[0]!.id;
    await subscribeToStockNotifications(other, ctx, {
      variantId,
      email: 'kim@example.com',
      consent: { granted: true, text: 'Mail me once.', version: '2026-01' },
    });
    const afterSignup = await contentDigest(other);
    expect(hash).not.toBe(afterSignup);
    expect(issuesOf(await remove([signedUp!]))).toEqual([
      expect.objectContaining({ handle: signedUp, expected: expect.stringMatching(/restock signup not yet notified/) }),
    ]);
    expect(await contentDigest(other)).toBe(afterSignup);

    // an open checkout session holds the product back; an expired one keeps its own copy of the line and does not
    const pickedId = (
      await other
        .select({ id: schema.productVariants.id })
        .from(schema.productVariants)
        .innerJoin(schema.products, eq(schema.products.id, schema.productVariants.productId))
        .where(eq(schema.products.handle, victim!))
    )[0]!.id;
    const session = await createCheckoutSession(other, ctx, { lines: [{ variantId: pickedId, quantity: 1 }] }, { ttlSeconds: 3600 });
    expect(issuesOf(await remove([victim!]))).toContainEqual(
      expect.objectContaining({ handle: victim, expected: expect.stringMatching(/a checkout session still open/) }),
    );
    await other.update(schema.checkoutSessions).set({ status: 'expired' }).where(eq(schema.checkoutSessions.id, session.id));
    const signupHash = await contentDigest(other);

    // the dry run plans it; the delete removes every row of the product, its members' places close up
    const [row] = await other.select().from(schema.products).where(eq(schema.products.handle, victim!));
    const variantIds = (
      await other
        .select({ id: schema.productVariants.id })
        .from(schema.productVariants)
        .where(eq(schema.productVariants.productId, row!.id))
    ).map((v) => v.id);
    const dry = await remove([victim!], true);
    expect(dry.ok && dry.plan.products).toMatchObject({ removed: 1 });
    expect(await contentDigest(other)).toBe(signupHash);
    const before = await version();
    const done = await remove([victim!]);
    expect(done.ok && done.applied).toBe(true);
    expect(await version()).toBeGreaterThan(before);
    const left = async (sql: string, args: string[]) => Number((await execute(other, { sql, args })).rows[0]![0]);
    const list = (n: number) => `(${Array(n).fill('?').join(', ')})`;
    expect(await left('SELECT count(*) FROM products WHERE id = ?', [row!.id])).toBe(0);
    for (const table of ['product_translations', 'product_images', 'bundles', 'collection_products', 'product_search_ids']) {
      expect(await left(`SELECT count(*) FROM ${table} WHERE product_id = ?`, [row!.id]), table).toBe(0);
    }
    for (const table of ['product_variants', 'variant_prices', 'inventory_levels']) {
      const column = table === 'product_variants' ? 'id' : 'variant_id';
      expect(await left(`SELECT count(*) FROM ${table} WHERE ${column} IN ${list(variantIds.length)}`, variantIds), table).toBe(0);
    }
    const positions = await execute(
      other,
      'SELECT collection_id, group_concat(position) AS p FROM (SELECT * FROM collection_products ORDER BY collection_id, position) GROUP BY collection_id',
    );
    for (const r of positions.rows)
      expect(String(r.p).split(',').map(Number)).toEqual(
        String(r.p)
          .split(',')
          .map((_, k) => k + 1),
      );
    expect(
      await left('SELECT count(*) FROM checkout_session_lines WHERE session_id = ?', [session.id]),
      'the expired session keeps its line',
    ).toBe(1);
    const se = await chooseMarket(other, ctx.site, {});
    await expect(getPublishedProduct(other, ctx.site, victim!, se)).rejects.toMatchObject({ code: 'not_found' });

    // --prune --delete: what the file lacks is deleted, not archived; a collection of the file may not keep it
    const now = await exportCatalog(other, 'demo');
    const without = {
      ...now,
      products: now.products.filter((p) => p.handle !== pruned),
      collections: now.collections.map((c) => ({ ...c, products: c.products.filter((h) => h !== pruned) })),
    };
    const parsed = await parseCatalogDocument(JSON.stringify(without));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const result = await importCatalog(other, documentSource(parsed.doc, parsed.lines), { siteHandle: 'demo', prune: true, delete: true });
    expect(result.ok && result.plan.products).toMatchObject({ removed: 1, unpublished: 0 });
    expect(await left('SELECT count(*) FROM products WHERE handle = ?', [pruned!])).toBe(0);
    const keeps = await parseCatalogDocument(
      JSON.stringify({ ...without, products: without.products.filter((p) => p.handle !== signedUp), collections: without.collections }),
    );
    const refused = keeps.ok
      ? await importCatalog(other, documentSource(keeps.doc, keeps.lines), { siteHandle: 'demo', prune: true, delete: true })
      : keeps;
    expect(issuesOf(refused)).toContainEqual(expect.objectContaining({ field: 'products', expected: expect.stringMatching(/is deleted/) }));
    closeDatabase(other);
  });
});
