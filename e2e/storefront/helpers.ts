import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Value } from '@/db';
import AxeBuilder from '@axe-core/playwright';
import { expect as baseExpect, type Browser, type BrowserContext, type Page, type TestInfo } from '@playwright/test';
import { test as baseTest } from '../support/request';
import { mainDatabaseUrl, rawClient } from '../support/instances';

/** Server actions re-render the page; on a busy 2-core machine that can take a few seconds. */
export const expect = baseExpect.configure({ timeout: 15_000 });

/** How Chromium words a Content-Security-Policy violation on the console (and in errors). */
const CSP_VIOLATION = /Content Security Policy/i;

/**
 * Every storefront test runs with this: any page it opens, in its own context or in one it
 * makes with `browser.newContext()` / `browser.newPage()`, fails the test when the browser
 * reports a Content-Security-Policy violation (a blocked script, style, frame, request…).
 * Chromium reports them on the page's console even with JavaScript off. A test that provokes
 * one on purpose takes it out of `cspViolations` after checking it.
 */
export const test = baseTest.extend<{ cspViolations: string[] }>({
  cspViolations: [
    async ({ context, browser }, use) => {
      const seen: string[] = [];
      const watchPage = (page: Page) => {
        page.on('console', (message) => {
          if (CSP_VIOLATION.test(message.text())) seen.push(`${page.url()}: ${message.text()}`);
        });
        page.on('pageerror', (error) => {
          if (CSP_VIOLATION.test(error.message)) seen.push(`${page.url()}: ${error.message}`);
        });
      };
      const watchContext = (c: BrowserContext) => {
        c.pages().forEach(watchPage);
        c.on('page', watchPage);
      };
      watchContext(context);
      // Tests run one after another in a worker, so the shared browser is patched for this test only.
      const newContext = browser.newContext;
      browser.newContext = async (options) => {
        const made = await newContext.call(browser, options);
        watchContext(made);
        return made;
      };
      // Playwright returns from use() after the test, whether it passed or not.
      await use(seen);
      browser.newContext = newContext;
      expect(seen, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

export const BASE_URL = process.env.E2E_BASE_URL ?? 'http://127.0.0.1:3100';

/** English chrome and the default market, so labels in tests read as English. */
export async function useLocale(context: BrowserContext, market = 'se', locale = 'en-SE') {
  await setLocaleCookies(context, market, locale);
}

async function setLocaleCookies(context: BrowserContext, market: string, locale: string) {
  await context.addCookies([
    { name: 'market', value: market, url: BASE_URL },
    { name: 'locale', value: locale, url: BASE_URL },
  ]);
}

/** A page in a browser with JavaScript off (in English, market se): what a shop must still work in. */
export async function pageWithoutScripts(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  await setLocaleCookies(context, 'se', 'en-SE');
  return { context, page: await context.newPage() };
}

/**
 * Opens a product page and waits until it has hydrated and its header shows the cart count.
 * Product pages are cached HTML, so they paint at once; a click on "Add to cart" before
 * hydration is a plain form post that adds the item but cannot show the action's
 * confirmation on a cached page. A cached page asks for the count only once it has
 * hydrated, so the count on screen is the condition (the network going quiet for 500 ms
 * is not one: on a busy machine hydration can come later than that).
 */
export async function openProduct(page: Page, path: string) {
  const response = await page.goto(path);
  await expect(page.locator('.cart-link .cart-count')).toBeVisible();
  return response;
}

/** A full-page screenshot kept as a test artifact (attached to the report and in test-results/storefront). */
export async function shot(page: Page, testInfo: TestInfo, name: string) {
  const dir = join('test-results', 'storefront');
  mkdirSync(dir, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const path = join(dir, `${name}-${width}.png`);
  // From the top, so the sticky header sits where a shopper sees it.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(`${name}-${width}`, { path, contentType: 'image/png' });
}

/** axe-core on the current page: no serious or critical violations. */
export async function expectAccessible(page: Page, testInfo: TestInfo, name: string) {
  // WCAG's rules, and axe's best practices, of which "region" (everything inside a landmark, so
  // a screen reader's landmark list reaches it) is held to as well, whatever its impact.
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'region');
  await testInfo.attach(`axe-${name}.json`, { body: JSON.stringify(results.violations, null, 2), contentType: 'application/json' });
  expect(
    bad.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    ),
  ).toEqual([]);
}

/** Reads the e2e database directly: the test's independent view of what the server did. */
export async function queryDb<T = Record<string, unknown>>(sql: string, args: Value[] = []): Promise<T[]> {
  const client = rawClient(mainDatabaseUrl());
  try {
    return (await client.execute({ sql, args })).rows as unknown as T[];
  } finally {
    client.close();
  }
}

/** The variant id a product page currently shows: its SKU, looked up in the page's Product JSON-LD. */
export async function currentVariantId(page: Page): Promise<string> {
  const skuLine = (await page.getByText(/^(SKU|Artikelnummer): /).textContent()) ?? '';
  const sku = skuLine.split(': ')[1]?.trim();
  const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}') as {
    offers: { sku: string; url: string }[];
  };
  const offer = ld.offers.find((o) => o.sku === sku);
  if (!offer) throw new Error(`no offer for SKU ${sku}`);
  return new URL(offer.url).searchParams.get('variant')!;
}

/**
 * Types into the header's box until it has hydrated and shows suggestions: text typed into
 * server HTML before React takes over is not seen by it, so the condition is the listbox.
 */
export async function typeUntilSuggested(page: Page, text: string) {
  const box = page.getByRole('combobox', { name: 'Search products' });
  await expect(async () => {
    await box.fill('');
    await box.pressSequentially(text);
    await expect(page.getByRole('listbox', { name: 'Suggestions' })).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  return box;
}

/** The contact step's fields, as a shopper types them (Kim at example.com). */
export async function fillAddress(page: Page, a: { lastName: string; line1: string; postalCode: string; city: string }) {
  const form = page.getByRole('region', { name: /Shipping address/ });
  await form.getByLabel('E-mail address').fill('kim@example.com');
  await form.getByLabel('First name').fill('Kim');
  await form.getByLabel('Last name').fill(a.lastName);
  await page.getByRole('combobox', { name: 'Street address' }).fill(a.line1);
  await page.getByLabel('Postal code').fill(a.postalCode);
  await page.getByLabel('City').fill(a.city);
}

/** Home delivery, the first speed, then payment: lands on the confirmation. */
export async function deliverHomeAndPay(page: Page) {
  const delivery = page.getByRole('region', { name: 'Delivery' });
  await delivery.getByRole('group', { name: 'Home delivery' }).getByRole('radio').first().check();
  await delivery.getByRole('button', { name: 'Use this delivery option' }).click();
  await expect(page.getByRole('complementary', { name: 'Order summary' }).getByText('Chosen in the next step')).toHaveCount(0);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await payOnDemoPage(page);
}

/** The sandbox's demo payment page: "Pay" completes the order through the same path as a provider's webhook. */
export async function payOnDemoPage(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: 'Demo payment' })).toBeVisible();
  await expect(page.getByText('No card is needed and no money is moved')).toBeVisible();
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
}
