import { expect, expectAccessible, openProduct, shot, test, useLocale } from './helpers';

test.use({ viewport: { width: 390, height: 844 } });
test.describe.configure({ timeout: 60_000 });

test('the shop on a phone: every page fits the screen', async ({ page, context }, testInfo) => {
  await useLocale(context);
  const fits = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Cart 0', exact: true })).toBeVisible();
  await fits();
  await shot(page, testInfo, 'home');
  await expectAccessible(page, testInfo, 'home-mobile');

  await page.goto('/collections/outdoor');
  await fits();
  await shot(page, testInfo, 'collection');

  await openProduct(page, '/products/polar-down-jacket');
  await page.getByRole('radio', { name: 'XL' }).check();
  await expect(page.getByTestId('availability')).toHaveText(/In stock|Only a few left|Available for preorder/);
  await fits();
  await shot(page, testInfo, 'product');
  await page.getByRole('button', { name: /Add to cart|Preorder/ }).click();
  await expect(page.getByRole('link', { name: 'Cart 1', exact: true })).toBeVisible();

  await page.goto('/cart');
  await fits();
  await shot(page, testInfo, 'cart');
  await page.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/checkout\/cs_/);
  await fits();
  await shot(page, testInfo, 'checkout');
});
