import type { Page } from '@playwright/test';
import { expect, expectAccessible, openProduct, shot, test, useLocale } from './helpers';

/**
 * Every page of the shop in every language at both widths, as full-page screenshots attached
 * to the Playwright report (issue #25), each page checked with axe. One test per language and
 * width, its pages in sequence: a reviewer flips through one shopper's visit.
 *
 * The confirmation page is not here: reaching it takes a whole checkout (checkout.spec.ts
 * shoots it, in English).
 */
const LANGUAGES = [
  { lang: 'en', market: 'se', locale: 'en-SE' },
  { lang: 'sv', market: 'se', locale: 'sv-SE' },
  { lang: 'de', market: 'de', locale: 'de-DE' },
] as const;
const WIDTHS = [1280, 390] as const;

const PRODUCT = '/products/fjord-ceramic-mug';

for (const { lang, market, locale } of LANGUAGES) {
  for (const width of WIDTHS) {
    test.describe(`${lang} at ${width} px`, () => {
      test.use({ viewport: { width, height: width === 390 ? 844 : 900 } });
      // Ten pages, each shot and checked by axe, on a busy 2-core machine.
      test.describe.configure({ timeout: 180_000 });

      test('every page, shot and checked by axe', async ({ page, context }, testInfo) => {
        await useLocale(context, market, locale);
        const capture = async (name: string) => {
          await expect(page.locator('html')).toHaveAttribute('lang', locale);
          await shot(page, testInfo, `${lang}-${name}`);
          await expectAccessible(page, testInfo, `${lang}-${name}-${width}`);
        };
        const visit = async (path: string, name: string, status = 200) => {
          const res = await page.goto(path);
          expect(res?.status(), path).toBe(status);
          await capture(name);
        };

        await visit('/', 'home');
        await visit('/collections/kitchen', 'collection');
        await visit('/products', 'all-products');
        await visit('/cart', 'cart-empty');

        // The cached product page has hydrated once its header shows the shopper's count.
        await openProduct(page, PRODUCT);
        await capture('product');
        await addToCart(page);
        await visit('/cart', 'cart');

        await page.locator('form[action="/shop-api/checkout"] button[type="submit"]').click();
        await expect(page).toHaveURL(/\/checkout\/cs_[A-Za-z0-9]+$/);
        await capture('checkout');

        await visit('/no-such-page', 'not-found', 404);
        await visit(`/subscriptions/confirm?token=${'A'.repeat(43)}`, 'subscription-confirm');
        await visit(`/subscriptions/unsubscribe?token=${'B'.repeat(43)}`, 'unsubscribe');
      });
    });
  }
}

/** The product page's own add-to-cart form, whatever the language calls its button. */
async function addToCart(page: Page) {
  await page.locator('form[action="/shop-api/cart/items"] button[type="submit"]').click();
  await expect(page.locator('.cart-link .cart-count')).toHaveText('1');
}
