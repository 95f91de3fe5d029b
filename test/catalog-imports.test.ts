import { rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import {
  catalogDocumentText, documentSource, exportCatalog, importCatalog, parseCatalogDocument, readShopifyCsv, shopifySource,
  type CatalogIssue,
} from '@/lib/commerce/catalog/transfer';
import type { CatalogDocument } from '@/lib/contract/catalog-document';
import { freshDatabase } from './support/database';

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
  database.$client.close();
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
    const { collections: _, ...noCollections } = doc;
    expect(issuesOf(await parseCatalogDocument(JSON.stringify(noCollections)))).toEqual([expect.objectContaining({ pointer: '/collections', expected: expect.stringMatching(/array/) })]);
    expect(issuesOf(await parseCatalogDocument(JSON.stringify({ ...doc, collections: {} })))).toEqual([expect.objectContaining({ pointer: '/collections', expected: expect.stringMatching(/array/) })]);
  });
});
