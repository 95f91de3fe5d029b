import { deliverHomeAndPay, expect, fillAddress, openProduct, test, typeUntilSuggested, useLocale } from '../storefront/helpers';

// A shopper's walk on the shop whose database is a libSQL server over the network: home,
// a product, search, the cart, and on through the checkout to the confirmation.

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
  await expect(page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option').filter({ hasText: 'Fjord Ceramic Mug' })).toHaveCount(
    1,
  );
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=mug$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Results for “mug”');
  await expect(page.getByRole('main').getByRole('heading', { level: 2, name: 'Fjord Ceramic Mug' })).toBeVisible();

  await page.goto('/cart');
  await expect(page.getByRole('list', { name: 'Your cart' }).getByRole('heading', { name: 'Linen Tote Bag' })).toBeVisible();
  await page.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/checkout\/cs_[A-Za-z0-9]+$/);
  await fillAddress(page, { lastName: 'Svensson', line1: 'Drottninggatan 1', postalCode: '111 51', city: 'Stockholm' });
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await deliverHomeAndPay(page);
  // Completed through the remote database's one transaction: the order and its number.
  await expect(page.getByTestId('order-number')).toHaveText(/^NHG-\d{5}$/);
});
