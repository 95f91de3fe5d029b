import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, openDatabase, type Database } from '@/db';
import { migrateDatabase } from '@/db/migrate';
import * as schema from '@/db/schema';
import { readSite } from '@/lib/commerce/catalog';
import { chooseMarket } from '@/lib/commerce/markets';
import {
  createSite,
  exportSettings,
  importSettings,
  parseSettingsDocument,
  settingsDocumentText,
  validateSettings,
} from '@/lib/commerce/site-settings';
import { SettingsDocument, settingsJsonSchemaText } from '@/lib/contract/site-settings-document';
import { authenticateCredential, createCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import { renderMail, senderLine } from '@/lib/mail/render';
import { freshDatabase } from './support/database';
import { startLibsqlTestServer } from '../e2e/support/libsql-server';

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

const file = (path: string) => readFileSync(new URL(path, import.meta.url));
const DEMO = () => file('../db/seed/sites/demo.json');
const FJELL = () => file('../e2e/support/site-fjell.json');

/** The Site as a request sees it now (its catalog version read afresh). */
async function site(handle = 'demo', db = database): Promise<SiteContext['site']> {
  const { token } = await createCredential(db, { siteHandle: handle, scope: 'core' });
  return (await authenticateCredential(db, token))!.site;
}

function parsed(bytes: Uint8Array | string) {
  const result = parseSettingsDocument(bytes);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result;
}

/** The document with `change` made to a copy of it, as bytes with its lines laid out as export does. */
function edited(bytes: Uint8Array, change: (doc: SettingsDocument) => void): string {
  const doc = JSON.parse(Buffer.from(bytes).toString('utf8')) as SettingsDocument;
  change(doc);
  return settingsDocumentText(doc);
}

describe('the settings files of the seed', () => {
  it('are valid settings documents, and the demo seeds exactly what its file says (export gives its bytes back)', async () => {
    for (const handle of ['demo', 'outlet']) {
      const bytes = file(`../db/seed/sites/${handle}.json`);
      const { doc } = parsed(bytes);
      expect(validateSettings(doc)).toEqual([]);
      expect(settingsDocumentText(await exportSettings(database, handle))).toBe(bytes.toString('utf8'));
    }
  });

  it("keep the demo's markets, tax and shipping as they were", async () => {
    const markets = await database
      .select()
      .from(schema.markets)
      .where(eq(schema.markets.siteId, (await site()).id))
      .orderBy(schema.markets.position);
    expect(markets.map((m) => [m.id, m.currency, m.taxInclusive, m.taxRateBp, m.defaultLocale])).toEqual([
      ['se', 'SEK', true, 2500, 'sv-SE'],
      ['de', 'EUR', true, 1900, 'de-DE'],
      ['us', 'USD', false, 0, 'en-US'],
    ]);
    const [at] = await database.select().from(schema.marketCountries).where(eq(schema.marketCountries.country, 'AT'));
    expect(at?.taxRateBp).toBe(2000);
    const [rate] = await database.select().from(schema.shippingRates).where(eq(schema.shippingRates.id, 'ship_de_standard'));
    expect([rate?.amount, rate?.minDays, rate?.maxDays, rate?.carrier]).toEqual([495, 3, 5, 'DHL']);
  });

  it("the published JSON Schema is the document's (npm run -s site:schema writes it)", () => {
    expect(file('../docs/site-settings.schema.json').toString('utf8')).toBe(settingsJsonSchemaText());
  });
});

describe('npm run site -- import', () => {
  it('writes nothing for the file the shop already matches', async () => {
    const { doc, lines } = parsed(DEMO());
    const result = await importSettings(database, doc, lines, { siteHandle: 'demo' });
    expect(result.ok && result.applied).toBe(false);
    expect(result.ok && result.plan.rowWrites).toBe(0);
  });

  it('a dry run plans and writes nothing; the import writes only what differs, and the next read shows it', async () => {
    const before = await site();
    const bytes = edited(DEMO(), (doc) => {
      doc.texts.de!.heroTitle = 'Schöne Dinge, lange gemacht';
      doc.markets[1]!.shipping[0]!.deliveryDays = { min: 2, max: 3 };
      doc.legalName = 'Nordlys Home & Goods AB (Demo)';
    });
    const { doc, lines } = parsed(bytes);
    const dry = await importSettings(database, doc, lines, { siteHandle: 'demo', dryRun: true });
    expect(dry.ok && !dry.applied && dry.plan.rowWrites).toBe(3);
    expect((await site()).catalogVersion).toBe(before.catalogVersion);

    const result = await importSettings(database, doc, lines, { siteHandle: 'demo' });
    expect(result.ok && result.applied).toBe(true);
    expect(result.ok && result.plan.parts.texts).toEqual({ created: 0, updated: 1, removed: 0, unchanged: 32 });
    expect(result.ok && result.plan.site).toBe('updated');
    const after = await site();
    expect(after.catalogVersion).toBeGreaterThan(before.catalogVersion);

    const read = await readSite(database, after);
    expect(read.texts?.['de-DE']?.heroTitle).toBe('Schöne Dinge, lange gemacht');
    expect(read.texts?.['en-DE']?.heroTitle).toBe('Simple things, made well');
    expect(read.business?.legalName).toBe('Nordlys Home & Goods AB (Demo)');
    const [rate] = await database.select().from(schema.shippingRates).where(eq(schema.shippingRates.id, 'ship_de_standard'));
    expect(rate).toMatchObject({ minDays: 2, maxDays: 3, amount: 495 });

    // and back: the demo file again
    const again = parsed(DEMO());
    const back = await importSettings(database, again.doc, again.lines, { siteHandle: 'demo' });
    expect(back.ok && back.plan.rowWrites).toBe(3);
  });

  it('refuses a file with mistakes whole, each with its line and JSON pointer', async () => {
    const before = await site();
    const bytes = edited(DEMO(), (doc) => {
      doc.markets[1]!.shipping[0]!.price = '4.955';
      doc.markets[0]!.countries.push('DE');
      doc.texts['fr'] = { heroTitle: 'Bonjour' };
      doc.texts.de!.heroTitle = 'Geändert';
    });
    const { doc, lines } = parsed(bytes);
    const result = await importSettings(database, doc, lines, { siteHandle: 'demo' });
    expect(result.ok).toBe(false);
    const issues = result.ok ? [] : result.issues;
    const text = bytes.split('\n');
    expect(issues.map((i) => i.pointer)).toEqual(['/markets/1/countries/0', '/markets/1/shipping/0/price', '/texts/fr']);
    expect(text[issues[1]!.line! - 1]).toContain('"price": "4.955"');
    expect(text[issues[2]!.line! - 1]).toContain('"fr"');
    expect(issues[1]!.expected).toContain('EUR amount');
    expect((await site()).catalogVersion).toBe(before.catalogVersion);
  });

  it("refuses what breaks the catalog: a market its prices are in, another currency, another Site's file", async () => {
    const { doc, lines } = parsed(
      edited(DEMO(), (d) => {
        d.markets = d.markets.filter((m) => m.id !== 'us');
        d.markets[1]!.currency = 'CHF';
      }),
    );
    const result = await importSettings(database, doc, lines, { siteHandle: 'demo' });
    const issues = result.ok ? [] : result.issues;
    expect(issues.map((i) => [i.pointer, i.field])).toEqual([
      ['/markets/1/currency', 'currency'],
      ['/markets', 'markets'],
      ['/markets', 'locales'],
    ]);
    expect(issues[0]!.expected).toMatch(/^"EUR": \d+ price\(s\) of the catalog are in it/);
    expect(issues[1]!.expected).toMatch(/^market "us" kept: \d+ price\(s\)/);
    // the products' English texts for the US: en-US goes with the market
    expect(issues[2]!.expected).toMatch(/^every locale the catalog has texts in: en-US /);
    const dropped = parsed(
      edited(DEMO(), (d) => {
        d.markets[1]!.locales = ['de-DE'];
      }),
    );
    const refused = await importSettings(database, dropped.doc, dropped.lines, { siteHandle: 'demo' });
    expect(refused.ok ? null : refused.issues.map((i) => [i.pointer, i.field])).toEqual([['/markets', 'locales']]);
    expect(refused.ok ? '' : refused.issues[0]!.expected).toContain('en-DE');
    const other = parsed(FJELL());
    const wrongSite = await importSettings(database, other.doc, other.lines, { siteHandle: 'demo' });
    expect(wrongSite.ok ? null : wrongSite.issues[0]).toMatchObject({ pointer: '/handle', line: 4 });
  });

  it('refuses bytes that are not UTF-8 or not JSON, with the line', () => {
    const latin1 = Buffer.concat([Buffer.from('{\n  "name": "K'), Buffer.from([0xf6]), Buffer.from('k"\n}')]);
    const notUtf8 = parseSettingsDocument(latin1);
    expect(notUtf8.ok ? null : notUtf8.issues[0]).toMatchObject({ line: 2, field: '(file)' });
    const notJson = parseSettingsDocument('{\n  "format": "site-delivery-settings",\n  "version": 1,,\n}');
    expect(notJson.ok ? null : notJson.issues[0]).toMatchObject({ line: 3, field: '(document)' });
    const shape = parseSettingsDocument(
      edited(DEMO(), (d) => {
        (d as { contactEmail: string }).contactEmail = 'not an address';
      }),
    );
    expect(shape.ok ? null : shape.issues[0]).toMatchObject({ pointer: '/contactEmail', line: 15 });
  });
});

describe('npm run site -- create', () => {
  it('makes a new Site of two markets and two languages, with no products, served from its settings', async () => {
    const { doc, lines } = parsed(FJELL());
    const dry = await createSite(database, doc, lines, { dryRun: true });
    expect(dry.ok && !dry.applied).toBe(true);
    expect(await database.select().from(schema.sites).where(eq(schema.sites.handle, 'fjell'))).toEqual([]);

    const result = await createSite(database, doc, lines);
    expect(result.ok && result.applied).toBe(true);
    const fjell = await site('fjell');
    expect(await database.select().from(schema.products).where(eq(schema.products.siteId, fjell.id))).toEqual([]);
    expect(settingsDocumentText(await exportSettings(database, 'fjell'))).toBe(FJELL().toString('utf8'));

    const read = await readSite(database, fjell, { locale: 'en-GB', page: 'imprint' });
    expect(read.markets.map((m) => [m.id, m.name, m.currency])).toEqual([
      ['de', 'Germany', 'EUR'],
      ['gb', 'United Kingdom', 'GBP'],
    ]);
    expect(read.texts?.['en-GB']?.heroTitle).toBe('Gear for the mountain');
    expect(read.texts?.['de-DE']?.tagline).toBe('Aus Berlin, für die Berge');
    expect(read.page).toMatchObject({ key: 'imprint', textLocale: 'en' });
    expect((await readSite(database, fjell, { locale: 'en-GB', page: 'returns' })).page).toEqual({
      key: 'returns',
      markdown: null,
      textLocale: null,
    });
    const gb = await chooseMarket(database, fjell, { market: 'gb' });
    expect(gb.locale).toBe('en-GB');
    const rates = await database.select().from(schema.shippingRates).where(eq(schema.shippingRates.siteId, fjell.id));
    expect(rates.filter((r) => r.marketId === 'gb').map((o) => [o.id, o.amount, o.minDays, o.maxDays])).toEqual([
      ['ship_fjell_gb_standard', 550, 3, 6],
    ]);

    const again = await createSite(database, doc, lines);
    expect(again.ok ? null : again.issues[0]).toMatchObject({ pointer: '/handle', line: 4 });
  });
});

describe('on a remote database (libSQL over HTTP, as sqld or Turso)', () => {
  it('create and import write over HTTP, and export reads back the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sd-remote-settings-'));
    dirs.push(dir);
    const server = await startLibsqlTestServer({ path: join(dir, 'site.db') });
    const remote = openDatabase({ url: server.url });
    try {
      await migrateDatabase(remote);
      const { doc, lines } = parsed(FJELL());
      const before = server.requests();
      const created = await createSite(remote, doc, lines);
      expect(created.ok && created.applied).toBe(true);
      expect(settingsDocumentText(await exportSettings(remote, 'fjell'))).toBe(FJELL().toString('utf8'));
      const change = parsed(
        edited(FJELL(), (d) => {
          d.texts.en!.tagline = 'Made in Berlin';
        }),
      );
      const result = await importSettings(remote, change.doc, change.lines, { siteHandle: 'fjell' });
      expect(result.ok && result.plan.rowWrites).toBe(1);
      expect(server.requests()).toBeGreaterThan(before);
      const fjell = await site('fjell', remote);
      expect((await readSite(remote, fjell)).texts?.['en-GB']?.tagline).toBe('Made in Berlin');
    } finally {
      closeDatabase(remote);
      await server.close();
    }
  });
});

describe('mail footers', () => {
  it("carry the sender's name and postal address, in the mail's language", () => {
    const message = {
      outboxId: 1,
      siteId: 's',
      shopName: 'Nordlys Home & Goods',
      to: 'a@example.com',
      locale: 'de-DE',
      sender: {
        legalName: 'Nordlys Home & Goods AB',
        postalAddress: { lines: ['Exempelgatan 1'], postalCode: '111 22', city: 'Stockholm', country: 'SE' },
      },
      template: 'newsletter_confirmation' as const,
      flowHandle: null,
      product: null,
      links: {
        shop: 'https://shop.example/',
        confirm: 'https://shop.example/c',
        product: null,
        unsubscribe: 'https://shop.example/u',
        oneClickUnsubscribe: 'https://shop.example/o',
      },
    };
    expect(senderLine(message)).toBe('Nordlys Home & Goods AB, Exempelgatan 1, 111 22 Stockholm, Schweden');
    const mail = renderMail(message);
    expect(mail.text).toContain('Nordlys Home & Goods AB, Exempelgatan 1, 111 22 Stockholm, Schweden');
    expect(mail.html).toContain('Nordlys Home &amp; Goods AB, Exempelgatan 1, 111 22 Stockholm, Schweden');
    expect(renderMail({ ...message, sender: null }).text).not.toContain('Exempelgatan');
  });
});
