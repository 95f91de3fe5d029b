import { expect, queryDb, test, useLocale } from './helpers';

test('views, add to cart and begin checkout reach the analytics operation with an anonymous id only', async ({ page, context }) => {
  await useLocale(context);
  await page.goto('/collections/textiles');
  await page.getByRole('link', { name: 'Linen Tote Bag' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Linen Tote Bag' })).toBeVisible();
  await expect(page.locator('.cart-link .cart-count')).toBeVisible(); // hydrated: see openProduct
  await page.getByRole('radio', { name: 'Natural' }).check();
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByText('Added to your cart.')).toBeVisible();
  await page.goto('/cart');
  await page.getByRole('button', { name: 'Checkout' }).click();
  await expect(page).toHaveURL(/\/checkout\/cs_/);

  const anon = (await context.cookies()).find((c) => c.name === 'anon_id');
  expect(anon?.httpOnly).toBe(true);
  expect(anon?.value).toMatch(/^[0-9a-f-]{36}$/);
  // Events are sent after the response; give the server a moment.
  await expect
    .poll(
      async () =>
        (await queryDb<{ type: string }>('select type from analytics_events where anonymous_id = ?', [anon!.value]))
          .map((r) => r.type)
          .sort(),
      { timeout: 10_000 },
    )
    .toEqual(expect.arrayContaining(['add_to_cart', 'begin_checkout', 'collection_view', 'page_view', 'product_view']));
  const rows = await queryDb<{ type: string; payload: string }>('select type, payload from analytics_events where anonymous_id = ?', [
    anon!.value,
  ]);
  const product = rows.find((r) => r.type === 'product_view');
  expect(JSON.parse(product!.payload)).toMatchObject({ productHandle: 'linen-tote-bag', path: '/products/linen-tote-bag' });
  const checkout = rows.find((r) => r.type === 'begin_checkout');
  expect(JSON.parse(checkout!.payload)).toMatchObject({ value: { currency: 'SEK' } });
  for (const row of rows) expect(row.payload).not.toMatch(/@|kim|svensson/i);
});
