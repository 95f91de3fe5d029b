import { rmSync } from 'node:fs';
import { and, eq, getTableName } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, type Database } from '@/db';
import * as schema from '@/db/schema';
import { getPublishedProduct, listCatalog, listProducts, readSite, readStorefrontSnapshot } from '@/lib/commerce/catalog';
import {
  catalogDocumentText,
  documentSource,
  exportCatalog,
  importCatalog,
  parseCatalogDocument,
  type CatalogIssue,
} from '@/lib/commerce/catalog/transfer';
import { readCatalogVariants } from '@/lib/commerce/checkout/catalog-lines';
import { chooseMarket } from '@/lib/commerce/markets';
import { ProductListQuery } from '@/lib/contract/operations/reads';
import type { CatalogDocument } from '@/lib/contract/catalog-document';
import { authenticateCredential, createCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import { DomainError } from '@/lib/platform/errors';
import { freshDatabase } from './support/database';
import { CATALOG_TABLES } from '@/db/seed';

const dirs: string[] = [];
let database: Database;

beforeAll(async () => {
  const fresh = await freshDatabase();
  dirs.push(fresh.dir);
  database = fresh.database;
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The Site as a request sees it now (its catalog version read afresh). */
async function site(db = database, handle = 'demo'): Promise<SiteContext['site']> {
  const { token } = await createCredential(db, { siteHandle: handle, scope: 'core' });
  return (await authenticateCredential(db, token))!.site;
}

async function product(handle: string, market: string, locale: string, db = database) {
  const s = await site(db);
  return getPublishedProduct(db, s, handle, await chooseMarket(db, s, { market, locale }));
}

describe('option texts per locale', () => {
  it('names options, values and variant titles in the locale; English locales show the stored text', async () => {
    const sv = await product('organic-cotton-tee', 'se', 'sv-SE');
    expect(sv.options).toEqual([
      { name: 'Färg', values: ['Vit', 'Marinblå'] },
      { name: 'Storlek', values: ['S', 'M', 'L'] },
    ]);
    expect(sv.variants[0]).toMatchObject({ options: { Färg: 'Vit', Storlek: 'S' }, title: 'Vit / S' });
    const de = await product('organic-cotton-tee', 'de', 'de-DE');
    expect(de.options).toEqual([
      { name: 'Farbe', values: ['Weiß', 'Marineblau'] },
      { name: 'Größe', values: ['S', 'M', 'L'] },
    ]);
    expect(de.variants.at(-1)).toMatchObject({ options: { Farbe: 'Marineblau', Größe: 'L' }, title: 'Marineblau / L' });
    const en = await product('organic-cotton-tee', 'se', 'en-SE');
    expect(en.options).toEqual([
      { name: 'Color', values: ['White', 'Navy'] },
      { name: 'Size', values: ['S', 'M', 'L'] },
    ]);
    // the same variants, ids and pictures in every locale; the pictures described in each one's words
    expect(de.variants.map((v) => [v.id, v.image?.url])).toEqual(sv.variants.map((v) => [v.id, v.image?.url]));
    expect(de.variants[0]!.image?.alt).toBe('T-Shirt aus Bio-Baumwolle in Weiß');
    expect(sv.variants[0]!.image?.alt).toBe('T-shirt i ekologisk bomull i vit');
    expect(sv.variants.some((v) => v.image !== null)).toBe(true);
    // the catalog feed says the same
    const s = await site();
    const feed = await listCatalog(database, s, await chooseMarket(database, s, { market: 'de', locale: 'de-DE' }), {
      limit: 10,
      handles: ['organic-cotton-tee'],
    });
    expect(feed.data[0]!.options).toEqual(de.options);
    expect(feed.data[0]!.variants.map((v) => v.title)).toEqual(de.variants.map((v) => v.title));
  });

  it("falls back like titles: no row in the locale shows the default locale's texts; an untranslated value its stored text", async () => {
    const [mug] = await database.select().from(schema.products).where(eq(schema.products.handle, 'fjord-ceramic-mug'));
    await database
      .delete(schema.productTranslations)
      .where(and(eq(schema.productTranslations.productId, mug!.id), eq(schema.productTranslations.locale, 'de-DE')));
    const de = await product('fjord-ceramic-mug', 'de', 'de-DE');
    expect(de.title).toBe((await product('fjord-ceramic-mug', 'se', 'sv-SE')).title);
    expect(de.options).toEqual([{ name: 'Färg', values: ['Vit', 'Sand', 'Midnattsblå'] }]);

    await database
      .update(schema.productTranslations)
      .set({ options: { Color: { values: { White: 'Snövit' } } } })
      .where(and(eq(schema.productTranslations.productId, mug!.id), eq(schema.productTranslations.locale, 'sv-SE')));
    const sv = await product('fjord-ceramic-mug', 'se', 'sv-SE');
    expect(sv.options).toEqual([{ name: 'Color', values: ['Snövit', 'Sand', 'Midnight'] }]);
    expect(sv.variants.map((v) => v.title)).toEqual(['Snövit', 'Sand', 'Midnight']);
  });

  it('localizes checkout line titles built from option values', async () => {
    const s = await site();
    const tee = await product('organic-cotton-tee', 'de', 'de-DE');
    const lines = await readCatalogVariants(database, s, 'de', 'de-DE', [tee.variants[0]!.id]);
    expect(lines.get(tee.variants[0]!.id)?.title).toBe(`${tee.title} — Weiß / S`);
  });

  it.each(['sv-SE', 'de-DE', 'en-DE'])('facets and option filters agree on the displayed texts in %s', async (locale) => {
    const s = await site();
    const market = locale.endsWith('SE') ? 'se' : 'de';
    const choice = await chooseMarket(database, s, { market, locale });
    const all = await listProducts(database, s, choice, ProductListQuery.parse({ facets: 'true', limit: '1' }));
    const facets = all.facets!.options;
    expect(facets.length).toBeGreaterThan(1);
    for (const { name, values } of facets) {
      for (const { value, count } of values) {
        const page = await listProducts(database, s, choice, ProductListQuery.parse({ option: [`${name}:${value}`], limit: '100' }));
        expect(page.data.length, `${name}:${value}`).toBe(count);
      }
    }
    const colour = { 'sv-SE': 'Färg:Vit', 'de-DE': 'Farbe:Weiß', 'en-DE': 'Color:White' }[locale]!;
    const stored = await listProducts(database, s, choice, ProductListQuery.parse({ option: [colour], limit: '100' }));
    expect(stored.data.length).toBeGreaterThan(3);
    // every product found shows that value
    for (const p of stored.data.slice(0, 5)) {
      const full = await getPublishedProduct(database, s, p.handle, choice);
      const [name, value] = colour.split(':');
      expect(
        full.variants.some((v) => v.options[name!] === value),
        p.handle,
      ).toBe(true);
    }
  });
});

describe('market names per locale', () => {
  it("GET /site names markets in the locale asked for, else in the Site's default locale", async () => {
    const s = await site();
    expect((await readSite(database, s)).markets.map((m) => m.name)).toEqual(['Sverige', 'Tyskland och Österrike', 'USA']);
    const de = await readSite(database, s, { locale: 'de-de' });
    expect(de.locale).toBe('de-DE');
    expect(de.markets.map((m) => m.name)).toEqual(['Schweden', 'Deutschland & Österreich', 'Vereinigte Staaten']);
    expect((await readSite(database, s, { locale: 'en-US' })).markets.map((m) => m.name)).toEqual([
      'Sweden',
      'Germany & Austria',
      'United States',
    ]);
    const error = await readSite(database, s, { locale: 'fr-FR' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('unsupported_locale');
  });

  it('the snapshot names its market and the others in its locale', async () => {
    const snapshot = await readStorefrontSnapshot(database, await site(), { market: 'de', locale: 'de-DE' });
    expect(snapshot.market.name).toBe('Deutschland & Österreich');
    expect(snapshot.markets.map((m) => m.name)).toEqual(['Schweden', 'Deutschland & Österreich', 'Vereinigte Staaten']);
  });

  it("a locale without a name shows the default locale's, then the stored one", async () => {
    const other = await freshDatabase();
    dirs.push(other.dir);
    const s = await site(other.database);
    await other.database.delete(schema.marketTranslations).where(eq(schema.marketTranslations.locale, 'de-DE'));
    expect((await readSite(other.database, await site(other.database), { locale: 'de-DE' })).markets[0]!.name).toBe('Sverige');
    await other.database.delete(schema.marketTranslations).where(eq(schema.marketTranslations.siteId, s.id));
    expect((await readSite(other.database, await site(other.database), { locale: 'de-DE' })).markets[0]!.name).toBe('Sweden');
  });
});

describe('option texts and market names in the catalog document', () => {
  async function importInto(db: Database, doc: CatalogDocument | string) {
    const parsed = await parseCatalogDocument(typeof doc === 'string' ? doc : JSON.stringify(doc));
    if (!parsed.ok) return parsed;
    return importCatalog(db, documentSource(parsed.doc, parsed.lines), { siteHandle: 'demo' });
  }

  it('round-trips them: export → import into an empty Site → export gives the same bytes', async () => {
    const source = await freshDatabase();
    dirs.push(source.dir);
    const original = await catalogDocumentText(await exportCatalog(source.database, 'demo'));
    const doc = JSON.parse(original) as CatalogDocument;
    expect(doc.markets[1]!.names).toEqual({
      'de-DE': 'Deutschland & Österreich',
      'en-DE': 'Germany & Austria',
      'en-SE': 'Germany & Austria',
      'en-US': 'Germany & Austria',
      'sv-SE': 'Tyskland och Österrike',
    });
    expect(doc.products.find((p) => p.handle === 'organic-cotton-tee')!.texts['de-DE']!.options).toEqual({
      Color: { name: 'Farbe', values: { White: 'Weiß', Navy: 'Marineblau' } },
      Size: { name: 'Größe' },
    });

    const target = await freshDatabase();
    dirs.push(target.dir);
    for (const table of [...CATALOG_TABLES, schema.marketTranslations])
      await execute(target.database, `DELETE FROM "${getTableName(table)}"`);
    const result = await importInto(target.database, original);
    expect(result.ok).toBe(true);
    expect(await catalogDocumentText(await exportCatalog(target.database, 'demo'))).toBe(original);
    expect((await product('organic-cotton-tee', 'de', 'de-DE', target.database)).options[0]!.name).toBe('Farbe');
    // and importing it again changes nothing
    const again = await importInto(target.database, original);
    expect(again.ok && again.plan.rowWrites).toBe(0);
  });

  it("imports edited texts, and a market left without names keeps the shop's", async () => {
    const db = await freshDatabase();
    dirs.push(db.dir);
    const doc = await exportCatalog(db.database, 'demo');
    doc.products.find((p) => p.handle === 'fjord-ceramic-mug')!.texts['de-DE']!.options = {
      Color: { name: 'Farbton', values: { Sand: 'Sandfarben' } },
    };
    doc.markets[0]!.names = { ...doc.markets[0]!.names, 'de-DE': 'Königreich Schweden' };
    delete doc.markets[2]!.names;
    const result = await importInto(db.database, doc);
    expect(result.ok && result.plan.products.updated).toBe(1);
    expect((await product('fjord-ceramic-mug', 'de', 'de-DE', db.database)).options).toEqual([
      { name: 'Farbton', values: ['White', 'Sandfarben', 'Midnight'] },
    ]);
    const names = (await readSite(db.database, await site(db.database), { locale: 'de-DE' })).markets.map((m) => m.name);
    expect(names).toEqual(['Königreich Schweden', 'Deutschland & Österreich', 'Vereinigte Staaten']);
  });

  it('refuses texts for an option or value the product lacks, texts shown alike, and names for unknown markets or locales', async () => {
    const doc = await exportCatalog(database, 'demo');
    const i = doc.products.findIndex((p) => p.handle === 'organic-cotton-tee');
    const tee = doc.products[i]!;
    tee.texts['sv-SE']!.options = {
      Colour: { name: 'Färg' },
      Color: { values: { Purple: 'Lila', White: 'Blå', Navy: 'Blå' } },
      Size: { name: 'Color' },
    };
    doc.markets[0]!.names = { 'fr-FR': 'Suède' };
    doc.markets.push({ id: 'no', currency: 'NOK', names: { 'sv-SE': 'Norge' } });
    const before = (await site()).catalogVersion;
    const result = await importInto(database, doc);
    expect(result.ok).toBe(false);
    const issues = (result as { issues: CatalogIssue[] }).issues.map((x) => [x.pointer, x.handle ?? null]);
    const at = `/products/${i}/texts/sv-SE/options`;
    expect(issues).toEqual(
      expect.arrayContaining([
        [`${at}/Colour`, 'organic-cotton-tee'],
        [`${at}/Color/values/Purple`, 'organic-cotton-tee'],
        [`${at}/Color/values/Navy`, 'organic-cotton-tee'],
        [`${at}/Size/name`, 'organic-cotton-tee'],
        ['/markets/0/names/fr-FR', null],
        ['/markets/3/names', null],
      ]),
    );
    expect((result as { issues: CatalogIssue[] }).issues.find((x) => x.pointer === `${at}/Colour`)!.expected).toContain('Color, Size');
    expect((await site()).catalogVersion).toBe(before);
  });
});
