import { writeBatch, type Statement } from '@/db';
import { and, asc, count, eq, notExists } from 'drizzle-orm';
import { getTableColumns, getTableName } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from '@/db/client';
import {
  bundlePrices,
  bundles,
  collections,
  collectionTranslations,
  marketCountries,
  marketLocales,
  markets,
  marketTranslations,
  notificationFlows,
  products,
  productTranslations,
  productVariants,
  shippingRates,
  sites,
  siteTexts,
  variantPrices,
} from '@/db/schema';
import { insertStatements } from '@/db/seed';
import {
  languageOf,
  PAGE_TEXT_PREFIX,
  settingsRows,
  shippingRateId,
  siteLocales,
  taxRatePercent,
  type SettingsRows,
} from '@/db/site-settings';
import {
  SETTINGS_FORMAT,
  SETTINGS_FORMAT_VERSION,
  SHOP_PAGES,
  SHOP_TEXT_KEYS,
  type SettingsDocument,
  type ShopTexts,
} from '@/lib/contract/site-settings-document';
import { newId } from '@/lib/platform/ids';
import { parseMinorUnits, toMoney } from '../money';
import { withLine, type SettingsIssue } from './document';

type SiteRow = typeof sites.$inferSelect;

/** The settings of the Site with this handle, as the document `import` takes back unchanged. */
export async function exportSettings(database: Database, handle: string): Promise<SettingsDocument> {
  const [site] = await database.select().from(sites).where(eq(sites.handle, handle));
  if (!site) throw new Error(`No Site with handle "${handle}".`);
  const [marketRows, countries, locales, names, rates, texts] = await Promise.all([
    database.select().from(markets).where(eq(markets.siteId, site.id)).orderBy(asc(markets.position)),
    database.select().from(marketCountries).where(eq(marketCountries.siteId, site.id)).orderBy(asc(marketCountries.position)),
    database.select().from(marketLocales).where(eq(marketLocales.siteId, site.id)).orderBy(asc(marketLocales.position)),
    database.select().from(marketTranslations).where(eq(marketTranslations.siteId, site.id)),
    database.select().from(shippingRates).where(eq(shippingRates.siteId, site.id)).orderBy(asc(shippingRates.position)),
    database.select().from(siteTexts).where(eq(siteTexts.siteId, site.id)),
  ]);
  const allLocales = [...new Set(marketRows.flatMap((m) => locales.filter((l) => l.marketId === m.id).map((l) => l.locale)))];
  const doc: SettingsDocument = {
    format: SETTINGS_FORMAT,
    version: SETTINGS_FORMAT_VERSION,
    handle: site.handle,
    name: site.name,
    legalName: site.legalName,
    postalAddress: site.postalAddress,
    contactEmail: site.contactEmail,
    defaultMarket: site.defaultMarketId,
    defaultLocale: site.defaultLocale,
    markets: marketRows.map((m) => {
      const own = countries.filter((c) => c.marketId === m.id);
      const countryRates = own.filter((c) => c.taxRateBp !== null);
      const namesOf = compressByLanguage(
        names.filter((n) => n.marketId === m.id).map((n) => [n.locale, n.name] as const),
        allLocales,
      );
      const marketLocaleList = locales.filter((l) => l.marketId === m.id).map((l) => l.locale);
      // the market's default locale is the first of its list
      const ordered = [m.defaultLocale, ...marketLocaleList.filter((l) => l !== m.defaultLocale)];
      return {
        id: m.id,
        name: m.name,
        ...(Object.keys(namesOf).length > 0 ? { names: namesOf } : {}),
        currency: m.currency,
        countries: own.map((c) => c.country),
        locales: ordered,
        taxRate: taxRatePercent(m.taxRateBp),
        ...(countryRates.length > 0
          ? { countryTaxRates: Object.fromEntries(countryRates.map((c) => [c.country, taxRatePercent(c.taxRateBp!)])) }
          : {}),
        pricesIncludeTax: m.taxInclusive,
        shipping: rates
          .filter((r) => r.marketId === m.id)
          .map((r) => ({
            key: keyOfRate(site.handle, m.id, r.id),
            kind: r.kind,
            title: r.title,
            carrier: r.carrier,
            price: toMoney(r.amount, m.currency).amount,
            deliveryDays: { min: r.minDays, max: r.maxDays },
          })),
      };
    }),
    texts: textsDocument(texts),
  };
  return doc;
}

/** Names per locale, written per language where every locale of the language has the same one. */
function compressByLanguage(entries: (readonly [string, string])[], allLocales: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const byLocale = new Map(entries);
  const languages = [...new Set(allLocales.map(languageOf))];
  for (const language of languages) {
    const ofLanguage = allLocales.filter((l) => languageOf(l) === language);
    const values = ofLanguage.map((l) => byLocale.get(l));
    if (values.every((v) => v !== undefined && v === values[0])) out[language] = values[0]!;
    else for (const l of ofLanguage) if (byLocale.has(l)) out[l] = byLocale.get(l)!;
  }
  return out;
}

function keyOfRate(handle: string, market: string, id: string): string {
  const prefix = shippingRateId(handle, market, '');
  return id.startsWith(prefix) ? id.slice(prefix.length) : id;
}

function textsDocument(rows: (typeof siteTexts.$inferSelect)[]): Record<string, ShopTexts> {
  const out: Record<string, ShopTexts> = {};
  const locales = [...new Set(rows.map((r) => r.locale))].sort();
  for (const locale of locales) {
    const mine = rows.filter((r) => r.locale === locale);
    const t: ShopTexts = {};
    for (const key of SHOP_TEXT_KEYS) {
      const row = mine.find((r) => r.key === key);
      if (row) t[key] = row.body;
    }
    const pages: NonNullable<ShopTexts['pages']> = {};
    for (const page of SHOP_PAGES) {
      const row = mine.find((r) => r.key === `${PAGE_TEXT_PREFIX}${page}`);
      if (row) pages[page] = row.body;
    }
    if (Object.keys(pages).length > 0) t.pages = pages;
    out[locale] = t;
  }
  return out;
}

/** The document as text, as `export` writes it: two-space JSON and a final newline. */
export function settingsDocumentText(doc: SettingsDocument): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** Checks the document makes sense on its own: markets, countries, locales, prices, texts. */
export function validateSettings(doc: SettingsDocument): SettingsIssue[] {
  const issues: SettingsIssue[] = [];
  const issue = (pointer: string, field: string, expected: string) => issues.push({ pointer, field, expected });
  const ids = new Map<string, number>();
  const countryOwner = new Map<string, string>();
  const locales = siteLocales(doc);
  const languages = new Set(locales.map(languageOf));
  const offered = `${locales.join(', ')} or their languages ${[...languages].join(', ')}`;
  doc.markets.forEach((m, i) => {
    const at = `/markets/${i}`;
    if (ids.has(m.id)) issue(`${at}/id`, 'id', `a market id no other market has ("${m.id}" is also /markets/${ids.get(m.id)})`);
    ids.set(m.id, i);
    try {
      new Intl.NumberFormat('en', { style: 'currency', currency: m.currency });
    } catch {
      issue(`${at}/currency`, 'currency', `a currency code Node knows (got "${m.currency}")`);
    }
    m.countries.forEach((c, j) => {
      const owner = countryOwner.get(c);
      if (owner !== undefined)
        issue(`${at}/countries/${j}`, 'countries', `a country no other market serves ("${c}" is also in market "${owner}")`);
      else countryOwner.set(c, m.id);
    });
    const seenLocale = new Set<string>();
    m.locales.forEach((l, j) => {
      if (seenLocale.has(l)) issue(`${at}/locales/${j}`, 'locales', `each locale once (got "${l}" twice)`);
      seenLocale.add(l);
    });
    for (const c of Object.keys(m.countryTaxRates ?? {})) {
      if (!m.countries.includes(c))
        issue(`${at}/countryTaxRates/${c}`, 'countryTaxRates', `a country of the market: ${m.countries.join(', ')} (got "${c}")`);
    }
    for (const key of Object.keys(m.names ?? {})) {
      if (!locales.includes(key) && !languages.has(key))
        issue(`${at}/names/${key}`, 'names', `a locale the Site offers: ${offered} (got "${key}")`);
    }
    const keys = new Set<string>();
    m.shipping.forEach((r, j) => {
      if (keys.has(r.key)) issue(`${at}/shipping/${j}/key`, 'key', `a key no other option of the market has (got "${r.key}" twice)`);
      keys.add(r.key);
      if (parseMinorUnits(r.price, m.currency) === null)
        issue(`${at}/shipping/${j}/price`, 'price', `a ${m.currency} amount with at most its decimals (got "${r.price}")`);
    });
  });
  const defaultMarket = doc.markets.find((m) => m.id === doc.defaultMarket);
  if (!defaultMarket)
    issue(
      '/defaultMarket',
      'defaultMarket',
      `the id of one of the file's markets: ${doc.markets.map((m) => m.id).join(', ')} (got "${doc.defaultMarket}")`,
    );
  else if (!defaultMarket.locales.includes(doc.defaultLocale)) {
    issue(
      '/defaultLocale',
      'defaultLocale',
      `a locale of the default market "${defaultMarket.id}": ${defaultMarket.locales.join(', ')} (got "${doc.defaultLocale}")`,
    );
  }
  for (const key of Object.keys(doc.texts)) {
    if (!locales.includes(key) && !languages.has(key))
      issue(`/texts/${key}`, 'texts', `a locale the Site offers: ${offered} (got "${key}")`);
  }
  return issues;
}

/** What an import or create would change, part by part. */
export type SettingsPlan = {
  site: 'created' | 'updated' | 'unchanged';
  parts: Record<
    'markets' | 'countries' | 'locales' | 'marketNames' | 'shipping' | 'texts',
    { created: number; updated: number; removed: number; unchanged: number }
  >;
  /** Statements that write the plan, in one batch (one transaction). */
  statements: Statement[];
  rowWrites: number;
};

export type SettingsResult =
  | { ok: true; siteId: string; plan: SettingsPlan; applied: boolean; catalogVersion: { before: number; after: number } }
  | { ok: false; issues: SettingsIssue[] };

/** A table and the columns of its primary key (what identifies a row across two reads). */
type Keyed = { table: SQLiteTable; key: string[] };
const PARTS: Record<'markets' | 'countries' | 'locales' | 'marketNames' | 'shipping' | 'texts', Keyed> = {
  markets: { table: markets, key: ['siteId', 'id'] },
  countries: { table: marketCountries, key: ['siteId', 'country'] },
  locales: { table: marketLocales, key: ['siteId', 'marketId', 'locale'] },
  marketNames: { table: marketTranslations, key: ['siteId', 'marketId', 'locale'] },
  shipping: { table: shippingRates, key: ['id'] },
  texts: { table: siteTexts, key: ['siteId', 'locale', 'key'] },
};
const ROWS_OF: Record<keyof typeof PARTS, keyof SettingsRows> = {
  markets: 'markets',
  countries: 'marketCountries',
  locales: 'marketLocales',
  marketNames: 'marketTranslations',
  shipping: 'shippingRates',
  texts: 'siteTexts',
};

/** Comparable text of a row: its columns in the table's order, undefined as null. */
function rowText(table: SQLiteTable, row: Record<string, unknown>): string {
  return JSON.stringify(Object.keys(getTableColumns(table)).map((k) => row[k] ?? null));
}

function deleteStatement(part: Keyed, row: Record<string, unknown>): Statement {
  const columns = getTableColumns(part.table);
  const where = part.key.map((k) => `"${columns[k]!.keyAsName ? toSnakeCase(columns[k]!.name) : columns[k]!.name}" = ?`).join(' AND ');
  return { sql: `DELETE FROM "${getTableName(part.table)}" WHERE ${where}`, args: part.key.map((k) => row[k] as string) };
}

async function currentRows(database: Database, siteId: string): Promise<Record<keyof typeof PARTS, Record<string, unknown>[]>> {
  const [m, c, l, n, s, t] = await Promise.all([
    database.select().from(markets).where(eq(markets.siteId, siteId)),
    database.select().from(marketCountries).where(eq(marketCountries.siteId, siteId)),
    database.select().from(marketLocales).where(eq(marketLocales.siteId, siteId)),
    database.select().from(marketTranslations).where(eq(marketTranslations.siteId, siteId)),
    database.select().from(shippingRates).where(eq(shippingRates.siteId, siteId)),
    database.select().from(siteTexts).where(eq(siteTexts.siteId, siteId)),
  ]);
  return { markets: m, countries: c, locales: l, marketNames: n, shipping: s, texts: t };
}

function planRows(
  wanted: SettingsRows,
  current: Record<keyof typeof PARTS, Record<string, unknown>[]> | null,
  siteStatement: Statement | null,
  created: boolean,
): SettingsPlan {
  const statements: Statement[] = siteStatement ? [siteStatement] : [];
  const parts = {} as SettingsPlan['parts'];
  let rowWrites = siteStatement ? 1 : 0;
  for (const name of Object.keys(PARTS) as (keyof typeof PARTS)[]) {
    const part = PARTS[name];
    const keyOf = (row: Record<string, unknown>) => JSON.stringify(part.key.map((k) => row[k]));
    const have = new Map((current?.[name] ?? []).map((r) => [keyOf(r), r]));
    const counts = { created: 0, updated: 0, removed: 0, unchanged: 0 };
    const inserts: Record<string, unknown>[] = [];
    for (const row of wanted[ROWS_OF[name]] as Record<string, unknown>[]) {
      const old = have.get(keyOf(row));
      have.delete(keyOf(row));
      if (!old) {
        counts.created += 1;
        inserts.push(row);
      } else if (rowText(part.table, old) !== rowText(part.table, row)) {
        counts.updated += 1;
        statements.push(deleteStatement(part, old));
        inserts.push(row);
      } else counts.unchanged += 1;
    }
    for (const old of have.values()) {
      counts.removed += 1;
      statements.push(deleteStatement(part, old));
    }
    statements.push(...insertStatements(part.table, inserts as never[]));
    rowWrites += counts.created + counts.updated + counts.removed;
    parts[name] = counts;
  }
  return { site: created ? 'created' : siteStatement ? 'updated' : 'unchanged', parts, statements, rowWrites };
}

/** The sites row's settings columns, as an UPDATE when any differs. */
function siteUpdate(site: SiteRow, wanted: SettingsRows['site']): Statement | null {
  const same =
    site.name === wanted.name &&
    site.legalName === wanted.legalName &&
    site.contactEmail === wanted.contactEmail &&
    JSON.stringify(site.postalAddress) === JSON.stringify(wanted.postalAddress) &&
    site.defaultMarketId === wanted.defaultMarketId &&
    site.defaultLocale === wanted.defaultLocale;
  if (same) return null;
  return {
    sql: 'UPDATE sites SET name = ?, legal_name = ?, postal_address = ?, contact_email = ?, default_market_id = ?, default_locale = ? WHERE id = ?',
    args: [
      wanted.name,
      wanted.legalName,
      wanted.postalAddress ? JSON.stringify(wanted.postalAddress) : null,
      wanted.contactEmail,
      wanted.defaultMarketId,
      wanted.defaultLocale,
      site.id,
    ],
  };
}

/** What the shop's catalog needs of its settings: markets it prices in keep their currency, products keep texts in the default locale. */
async function validateAgainstShop(database: Database, site: SiteRow, doc: SettingsDocument): Promise<SettingsIssue[]> {
  const issues: SettingsIssue[] = [];
  const [existing, priced, bundlePriced] = await Promise.all([
    database.select().from(markets).where(eq(markets.siteId, site.id)),
    database
      .select({ marketId: variantPrices.marketId, n: count() })
      .from(variantPrices)
      .innerJoin(productVariants, eq(productVariants.id, variantPrices.variantId))
      .where(eq(productVariants.siteId, site.id))
      .groupBy(variantPrices.marketId),
    database
      .select({ marketId: bundlePrices.marketId, n: count() })
      .from(bundlePrices)
      .innerJoin(bundles, eq(bundles.id, bundlePrices.bundleId))
      .innerJoin(products, eq(products.id, bundles.productId))
      .where(eq(products.siteId, site.id))
      .groupBy(bundlePrices.marketId),
  ]);
  const prices = new Map<string, number>();
  for (const row of [...priced, ...bundlePriced]) prices.set(row.marketId, (prices.get(row.marketId) ?? 0) + row.n);
  for (const m of existing) {
    const n = prices.get(m.id) ?? 0;
    if (n === 0) continue;
    const i = doc.markets.findIndex((x) => x.id === m.id);
    if (i < 0) {
      issues.push({
        pointer: '/markets',
        field: 'markets',
        expected: `market "${m.id}" kept: ${n} price(s) of the catalog are in it (remove them with a catalog import first)`,
      });
    } else if (doc.markets[i]!.currency !== m.currency) {
      issues.push({
        pointer: `/markets/${i}/currency`,
        field: 'currency',
        expected: `"${m.currency}": ${n} price(s) of the catalog are in it (a new currency needs a new market)`,
      });
    }
  }
  // The catalog's texts in a locale the file drops would be refused by the next catalog import
  // and shown by nothing: the catalog lets go of them first.
  const kept = new Set(siteLocales(doc));
  const [productLocales, collectionLocales] = await Promise.all([
    database
      .selectDistinct({ locale: productTranslations.locale })
      .from(productTranslations)
      .innerJoin(products, eq(products.id, productTranslations.productId))
      .where(eq(products.siteId, site.id)),
    database
      .selectDistinct({ locale: collectionTranslations.locale })
      .from(collectionTranslations)
      .innerJoin(collections, eq(collections.id, collectionTranslations.collectionId))
      .where(eq(collections.siteId, site.id)),
  ]);
  const dropped = [...new Set([...productLocales, ...collectionLocales].map((r) => r.locale))].filter((l) => !kept.has(l)).sort();
  if (dropped.length > 0) {
    issues.push({
      pointer: '/markets',
      field: 'locales',
      expected: `every locale the catalog has texts in: ${dropped.join(', ')} (remove those texts with a catalog import first, or keep the locale in a market)`,
    });
  }
  if (doc.defaultLocale !== site.defaultLocale) {
    const [missing] = await database
      .select({ n: count() })
      .from(products)
      .where(
        and(
          eq(products.siteId, site.id),
          notExists(
            database
              .select({ one: productTranslations.productId })
              .from(productTranslations)
              .where(and(eq(productTranslations.productId, products.id), eq(productTranslations.locale, doc.defaultLocale))),
          ),
        ),
      );
    if ((missing?.n ?? 0) > 0) {
      issues.push({
        pointer: '/defaultLocale',
        field: 'defaultLocale',
        expected: `a locale every product has texts in (${missing!.n} product(s) have none in "${doc.defaultLocale}"; add them with a catalog import first)`,
      });
    }
  }
  return issues;
}

async function catalogVersion(database: Database, siteId: string): Promise<number> {
  const [row] = await database.select({ v: sites.catalogVersion }).from(sites).where(eq(sites.id, siteId));
  return row?.v ?? 0;
}

/**
 * Makes the Site's settings what the document says: checked whole first (nothing is written
 * when anything is wrong), then only the rows that differ, in one batch (one transaction). Every
 * change bumps the catalog version (triggers), so every instance shows it from its next request.
 */
export async function importSettings(
  database: Database,
  doc: SettingsDocument,
  lines: Map<string, number>,
  options: { siteHandle: string; dryRun?: boolean },
): Promise<SettingsResult> {
  const [site] = await database.select().from(sites).where(eq(sites.handle, options.siteHandle));
  if (!site)
    return {
      ok: false,
      issues: [
        {
          pointer: '',
          field: '--site',
          expected: `the handle of a Site of this database (no Site "${options.siteHandle}"; make one with: npm run site -- create FILE)`,
        },
      ],
    };
  const issues = validateSettings(doc);
  if (doc.handle !== site.handle)
    issues.unshift({
      pointer: '/handle',
      field: 'handle',
      expected: `"${site.handle}", the Site being imported into (got "${doc.handle}")`,
    });
  if (issues.length === 0) issues.push(...(await validateAgainstShop(database, site, doc)));
  if (issues.length > 0) return { ok: false, issues: issues.map((i) => withLine(i, lines)) };
  const wanted = settingsRows(doc, { id: site.id, handle: site.handle });
  const plan = planRows(wanted, await currentRows(database, site.id), siteUpdate(site, wanted.site), false);
  const before = site.catalogVersion;
  if (options.dryRun || plan.statements.length === 0)
    return { ok: true, siteId: site.id, plan, applied: false, catalogVersion: { before, after: before } };
  await writeBatch(database, plan.statements);
  return { ok: true, siteId: site.id, plan, applied: true, catalogVersion: { before, after: await catalogVersion(database, site.id) } };
}

/** The hosted checkout of a Site made by `create`: the storefront's own, on whatever origin the API answers from. */
const CHECKOUT_BASE_URL = '/checkout';

/**
 * A new Site from a settings document: its settings, the standard back-in-stock mail flow, and
 * no products (add them with `npm run catalog -- import`). Refused when the handle is taken.
 */
export async function createSite(
  database: Database,
  doc: SettingsDocument,
  lines: Map<string, number>,
  options: { dryRun?: boolean; now?: number } = {},
): Promise<SettingsResult> {
  const issues = validateSettings(doc);
  const [taken] = await database.select({ id: sites.id }).from(sites).where(eq(sites.handle, doc.handle));
  if (taken)
    issues.unshift({
      pointer: '/handle',
      field: 'handle',
      expected: `a handle no Site has yet ("${doc.handle}" is taken: change it with npm run site -- import --site ${doc.handle})`,
    });
  if (issues.length > 0) return { ok: false, issues: issues.map((i) => withLine(i, lines)) };
  const siteId = newId('site');
  const wanted = settingsRows(doc, { id: siteId, handle: doc.handle });
  const [insertSite] = insertStatements(sites, [
    { id: siteId, handle: doc.handle, ...wanted.site, checkoutBaseUrl: CHECKOUT_BASE_URL, createdAt: options.now ?? Date.now() },
  ]);
  const plan = planRows(wanted, null, insertSite!, true);
  plan.statements.push(
    ...insertStatements(notificationFlows, [
      {
        id: newId('flow'),
        siteId,
        handle: 'back-in-stock-email',
        kind: 'stock',
        channel: 'email',
        enabled: true,
        isDefault: true,
      },
    ]),
  );
  if (options.dryRun) return { ok: true, siteId, plan, applied: false, catalogVersion: { before: 0, after: 0 } };
  await writeBatch(database, plan.statements);
  return { ok: true, siteId, plan, applied: true, catalogVersion: { before: 0, after: await catalogVersion(database, siteId) } };
}
