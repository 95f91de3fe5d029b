import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { freePort, killInstance, startInstance, type Instance } from '../support/instances';
import { expect, test, useLocale } from './helpers';

// The shop's own pages come from its settings (docs/site-settings.md): the demo's in its three
// languages, and a shop made with `npm run site -- create` from a settings file of two markets
// and two languages on a database of its own, with no demo data, served by its own instance.

const PAGES: { path: string; title: Record<'en' | 'sv' | 'de', string> }[] = [
  { path: '/legal/imprint', title: { en: 'Imprint', sv: 'Företagsuppgifter', de: 'Impressum' } },
  { path: '/legal/privacy', title: { en: 'Privacy policy', sv: 'Integritetspolicy', de: 'Datenschutzerklärung' } },
  { path: '/legal/terms', title: { en: 'Terms and conditions', sv: 'Köpvillkor', de: 'AGB' } },
  { path: '/legal/withdrawal', title: { en: 'Right of withdrawal', sv: 'Ångerrätt', de: 'Widerrufsrecht' } },
  { path: '/shipping', title: { en: 'Shipping and delivery', sv: 'Frakt och leverans', de: 'Versand und Lieferung' } },
  { path: '/returns', title: { en: 'Returns', sv: 'Returer', de: 'Rücksendungen' } },
  { path: '/contact', title: { en: 'Contact', sv: 'Kontakt', de: 'Kontakt' } },
];

/** Every page answers 200 with its title; the footer links every one and nothing for developers. */
async function checkPages(page: Page, origin: string, lang: 'en' | 'sv' | 'de', body: (path: string) => RegExp | null) {
  for (const { path, title } of PAGES) {
    const res = await page.goto(`${origin}${path}`);
    expect(res?.status(), path).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: title[lang] })).toBeVisible();
    const expected = body(path);
    if (expected) await expect(page.locator('main')).toContainText(expected);
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: title[lang], exact: true })).toHaveAttribute('href', path);
  }
  await expect(page.getByRole('contentinfo').getByRole('link', { name: /API/ })).toHaveCount(0);
  await expect(page.locator('footer a[href^="/docs"]')).toHaveCount(0);
}

test.describe("the demo shop's own pages", () => {
  for (const [market, locale, lang, withdrawal] of [
    ['se', 'sv-SE', 'sv', /Du har rätt att ångra ditt köp inom 14 dagar/],
    ['se', 'en-SE', 'en', /You may withdraw from your purchase within 14 days/],
    ['de', 'de-DE', 'de', /binnen vierzehn Tagen ohne Angabe von Gründen/],
  ] as const) {
    test(`answer in ${locale}, from the settings' Markdown`, async ({ page, context }) => {
      await useLocale(context, market, locale);
      await checkPages(page, '', lang, (path) =>
        path === '/legal/withdrawal' ? withdrawal : path === '/legal/imprint' ? /Exempelgatan 1/ : null,
      );
      await page.goto('/legal/imprint');
      // Markdown, not its source: a heading of its own and no asterisks
      await expect(page.locator('main h2').first()).toBeVisible();
      await expect(page.locator('main')).not.toContainText('**');
      await expect(page.locator('main address')).toContainText('Nordlys Home & Goods AB');
    });
  }

  test("an unknown legal page is the shop's 404", async ({ page, context }) => {
    await useLocale(context);
    expect((await page.goto('/legal/cookies'))?.status()).toBe(404);
  });
});

test.describe('a shop made from a settings file', () => {
  test.describe.configure({ mode: 'serial', timeout: 180_000 });
  const scratch = mkdtempSync(join(tmpdir(), 'sd-site-'));
  let shop: Instance;
  let url: string;

  /** The command as an operator runs it (package.json's `site` script), on the shop's database. */
  function site(...args: string[]) {
    return spawnSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'scripts/site.ts', ...args], {
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: url },
      timeout: 120_000,
    });
  }

  test.beforeAll(async () => {
    url = `file:${join(scratch, 'site.db')}`;
    // a database that has nothing yet
    const made = site('create', 'e2e/support/site-fjell.json');
    expect(made.status, made.stderr).toBe(0);
    expect(made.stderr).toContain('site         created');
    const token = /^site_extended_\w+$/.exec(made.stdout.trim())?.[0];
    expect(token, made.stdout).toBeTruthy();
    const port = await freePort();
    shop = await startInstance(
      url,
      { SITE_API_CREDENTIAL: token!, SITE_API_BASE_URL: `http://127.0.0.1:${port}`, PAGE_RENDER_AHEAD: 'off' },
      90_000,
      port,
    );
  });
  test.afterAll(async () => {
    if (shop) await killInstance(shop);
    rmSync(scratch, { recursive: true, force: true });
  });

  async function visit(context: BrowserContext, market: string, locale: string) {
    await context.addCookies([
      { name: 'market', value: market, url: shop.baseURL },
      { name: 'locale', value: locale, url: shop.baseURL },
    ]);
  }

  for (const [market, locale, lang, hero, tagline, pitch, marketName] of [
    [
      'de',
      'de-DE',
      'de',
      'Ausrüstung für den Berg',
      'Aus Berlin, für die Berge',
      'Einmal im Monat: neue Ausrüstung und Touren.',
      'Deutschland',
    ],
    ['de', 'en-DE', 'en', 'Gear for the mountain', 'From Berlin, for the mountains', 'Once a month: new gear and tours.', 'Germany'],
    ['gb', 'en-GB', 'en', 'Gear for the mountain', 'From Berlin, for the mountains', 'Once a month: new gear and tours.', 'United Kingdom'],
  ] as const) {
    test(`is served in ${market} / ${locale}: its own words, its own pages, no demo data`, async ({ page, context }) => {
      await visit(context, market, locale);
      const home = await page.goto(`${shop.baseURL}/`);
      expect(home?.status()).toBe(200);
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      await expect(page.getByRole('heading', { level: 1, name: hero })).toBeVisible();
      await expect(page.locator('.topbar')).toContainText(tagline);
      await expect(page.getByRole('contentinfo')).toContainText(pitch);
      await expect(page.getByRole('contentinfo')).toContainText(marketName);
      await expect(page.locator('.brand')).toHaveText('Fjell Versand');
      // nothing of the demo: not its words, not its products
      await expect(page.locator('body')).not.toContainText(/Nordlys|Simple things|Einfache Dinge/);
      const list = await page.goto(`${shop.baseURL}/products`);
      expect(list?.status()).toBe(200);
      await expect(page.locator('.product-card')).toHaveCount(0);

      await checkPages(page, shop.baseURL, lang, (path) => {
        if (path === '/legal/withdrawal') return lang === 'de' ? /binnen vierzehn Tagen/ : /within fourteen days/;
        // the file has no returns page: it says so, in the shopper's language
        if (path === '/returns') return lang === 'de' ? /noch nicht geschrieben/ : /not written this page yet/;
        if (path === '/legal/imprint') return /Fjell Versand GmbH/;
        return null;
      });
    });
  }

  test('an import of changed settings is what the running shop shows from its next request', async ({ page, context }) => {
    await visit(context, 'de', 'de-DE');
    await page.goto(`${shop.baseURL}/`);
    await expect(page.getByRole('heading', { level: 1, name: 'Ausrüstung für den Berg' })).toBeVisible();
    const doc = JSON.parse(readFileSync('e2e/support/site-fjell.json', 'utf8'));
    doc.texts.de.heroTitle = 'Neu: Ausrüstung für den Winter';
    doc.texts.de.pages.returns = '## Rücksendungen\n\nInnerhalb von 30 Tagen kostenlos.';
    const file = join(scratch, 'fjell.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const dry = site('import', '--site', 'fjell', file, '--dry-run');
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('2 row(s) would be written.');
    const applied = site('import', '--site', 'fjell', file);
    expect(applied.status, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Applied: 2 row(s)');
    await page.goto(`${shop.baseURL}/`);
    await expect(page.getByRole('heading', { level: 1, name: 'Neu: Ausrüstung für den Winter' })).toBeVisible();
    await page.goto(`${shop.baseURL}/returns`);
    await expect(page.locator('main')).toContainText('Innerhalb von 30 Tagen kostenlos.');
  });
});
