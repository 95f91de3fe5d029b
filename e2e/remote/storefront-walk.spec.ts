import type { Page } from '@playwright/test';
import { expect, openProduct, test, useLocale } from '../storefront/helpers';

// A shopper's walk on the shop whose database is a libSQL server over the network: home,
// a product, search, the cart, and on through the checkout to the confirmation.

async function typeUntilSuggested(page: Page, text: string) {
  const box = page.getByRole('combobox', { name: 'Search products' });
  await expect(async () => {
    await box.fill('');
    await box.pressSequentially(text);
    await expect(page.getByRole('listbox', { name: 'Suggestions' })).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  return box;
}

test('home, product, search, cart and checkout on a remote database', async ({ page, context }) => {
  test.setTimeout(120_000);
  await useLocale(context);
  const home = await page.goto('/');
  expect(home?.status()).toBe(200);
  await expect(page.getByRole('contentinfo')).toBeVisible();

  await openProduct(page, '/products/linen-tote-bag');
  await expect(page.getByRole('heading', { level: 1, name: 'Linen Tote Bag' })).toBeVisible();
  await page.getByRole('radio', { name: 'Natural' }).check();
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByText('Added to your cart.')).toBeVisible();

  await page.goto('/');
  const box = await typeUntilSuggested(page, 'mug');
  await expect(page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option').filter({ hasText: 'Fjord Ceramic Mug' })).toHaveCount(1);
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=mug$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Results for “mug”');
  await expect(page.getByRole('main').getByRole('heading', { level: 2, name: 'Fjord Ceramic Mug' })).toBeVisible();

  await page.goto('/cart');
  await expect(page.getByRole('list', { name: 'Your cart' }).getByRole('heading', { name: 'Linen Tote Bag' })).toBeVisible();
  await page.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/checkout\/cs_[A-Za-z0-9]+$/);
  const form = page.getByRole('region', { name: /Shipping address/ });
  await form.getByLabel('E-mail address').fill('kim@example.com');
  await form.getByLabel('First name').fill('Kim');
  await form.getByLabel('Last name').fill('Svensson');
  await page.getByRole('combobox', { name: 'Street address' }).fill('Drottninggatan 1');
  await page.getByLabel('Postal code').fill('111 51');
  await page.getByLabel('City').fill('Stockholm');
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  const delivery = page.getByRole('region', { name: 'Delivery' });
  await delivery.getByRole('group', { name: 'Home delivery' }).getByRole('radio').first().check();
  await delivery.getByRole('button', { name: 'Use this delivery option' }).click();
  await expect(page.getByRole('complementary', { name: 'Order summary' }).getByText('Chosen in the next step')).toHaveCount(0);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your order' })).toBeVisible();
  await expect(page.getByTestId('payment-reference')).toHaveText(/\S{8,}/);
});
