import { expect, test, useLocale } from './helpers';

test.describe('bundles', () => {
  test.describe.configure({ timeout: 90_000 });

  test('a bundle added to the cart is charged the bundle price at checkout', async ({ page, context }) => {
    await useLocale(context);
    await page.goto('/products/morning-coffee-set');
    const offers = page
      .getByRole('region', { name: 'Bundle offer' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('button', { name: 'Add bundle to cart' }) });
    await expect(offers.first()).toBeVisible();
    // The seed's stock decides which bundle can be bought now: take the first that can.
    let added: { title: string; price: string } | null = null;
    for (let i = 0; i < (await offers.count()) && !added; i += 1) {
      const offer = offers.nth(i);
      await offer.getByRole('button', { name: 'Add bundle to cart' }).click();
      const notice = offer.locator('.notice');
      await expect(notice).toBeVisible();
      if ((await notice.textContent())?.includes('The bundle was added to your cart.')) {
        const heading = (await offer.getByRole('heading', { level: 3 }).textContent()) ?? '';
        const [title, price] = heading.split(' · ');
        added = { title: title!.trim(), price: price!.trim() };
      } else {
        await expect(notice).toContainText('sold out');
      }
    }
    expect(added, 'a bundle that can be bought').not.toBeNull();

    await page.goto('/cart');
    const entry = page
      .getByRole('list', { name: 'Your cart' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: added!.title }) });
    await expect(entry).toContainText(added!.price);
    const quantity = entry.getByLabel(`Quantity of ${added!.title}`, { exact: true });
    await expect(quantity).toHaveText('1');
    await entry.getByRole('button', { name: `Increase quantity of ${added!.title}` }).click();
    await expect(quantity).toHaveText('2');
    await entry.getByRole('button', { name: `Decrease quantity of ${added!.title}` }).click();
    await expect(quantity).toHaveText('1');

    await page.getByRole('button', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/checkout\/cs_[A-Za-z0-9]+$/);
    const summary = page.getByRole('complementary', { name: 'Order summary' });
    await expect(summary.getByText(`(${added!.title})`).first()).toBeVisible();
    await expect(summary.locator('dt', { hasText: 'Subtotal' }).locator('+ dd')).toHaveText(added!.price);

    await page.goto('/cart');
    await entry.getByRole('button', { name: `Remove ${added!.title} from cart` }).click();
    await expect(page.getByText('Your cart is empty')).toBeVisible();
  });
});
