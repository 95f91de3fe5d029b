import { expect, openProduct, test, useLocale } from './helpers';

// Option names and values and market names come from the API in the shopper's locale; the
// shop shows them as they come, on the product page, in the cart, at checkout and in the
// market switcher.
test.describe("option and market names in the shopper's language", () => {
  test('a Swedish shopper sees Swedish options, variant titles and market names through to checkout', async ({ page, context }) => {
    await useLocale(context, 'se', 'sv-SE');
    await openProduct(page, '/products/organic-cotton-tee');
    const colour = page.getByRole('group', { name: /^Färg: / });
    await expect(colour).toContainText('Vit');
    await expect(page.getByRole('group', { name: /^Storlek: / })).toBeVisible();
    await expect(page.getByRole('group', { name: /^(Color|Size): / })).toHaveCount(0);

    const switcher = page.getByLabel('Land / region och språk');
    await expect(switcher).toHaveValue('se|sv-SE');
    await expect(switcher.locator('option:checked')).toHaveText('Sverige (SEK) · Svenska');
    await expect(switcher.locator('option[value="de|de-DE"]')).toHaveText('Tyskland och Österrike (EUR) · Deutsch');
    await expect(page.getByRole('contentinfo')).toContainText('Sverige');

    await page.getByRole('radio', { name: /^Marinblå/ }).check();
    await page.getByRole('radio', { name: /^M\b/ }).check();
    await expect(colour).toContainText('Marinblå');
    await page.getByRole('button', { name: 'Lägg i varukorgen' }).click();
    await expect(page.getByText('Tillagd i varukorgen.')).toBeVisible();

    await page.goto('/cart');
    await expect(page.getByText('Marinblå / M', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Till kassan' }).click();
    await expect(page).toHaveURL(/\/checkout\/cs_/);
    await expect(page.getByRole('complementary', { name: 'Ordersammanfattning' })).toContainText('— Marinblå / M');
  });

  test("bundles are named in the shopper's language", async ({ page, context }) => {
    await useLocale(context, 'se', 'sv-SE');
    await openProduct(page, '/products/morning-coffee-set');
    const offers = page.getByRole('region', { name: 'Paketerbjudande' });
    await expect(offers.getByRole('heading', { level: 3, name: /^Kaffe för två · / })).toBeVisible();
    await expect(offers).not.toContainText('Coffee for two');
    await useLocale(context, 'de', 'de-DE');
    await openProduct(page, '/products/morning-coffee-set');
    await expect(page.getByRole('heading', { level: 3, name: /^Kaffee für zwei · / })).toBeVisible();
  });

  test("moving the checkout to a market without the shopper's language: the whole shop follows it, not only the lines", async ({
    page,
    context,
  }) => {
    await useLocale(context, 'se', 'sv-SE');
    await openProduct(page, '/products/fjord-ceramic-mug');
    await page.getByRole('button', { name: 'Lägg i varukorgen' }).click();
    await expect(page.getByText('Tillagd i varukorgen.')).toBeVisible();
    await page.goto('/cart');
    await page.getByRole('button', { name: 'Till kassan' }).click();
    await expect(page).toHaveURL(/\/checkout\/cs_/);
    await page.waitForLoadState('networkidle');
    // The US market has no Swedish: the session and the page go on in English, in dollars.
    await page.getByLabel('Land', { exact: true }).selectOption('US');
    await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Order summary' })).toContainText('Fjord Ceramic Mug — White');
    await expect(page.getByTestId('checkout-total')).toContainText('$');
    const cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value]));
    expect(cookies).toMatchObject({ market: 'us', locale: 'en-US' });
  });

  test('switching to German names options and markets in German', async ({ page, context }) => {
    await useLocale(context, 'se', 'sv-SE');
    await openProduct(page, '/products/fjord-ceramic-mug');
    await expect(page.getByRole('radio', { name: /^Midnattsblå/ })).toBeVisible();
    await page.getByLabel('Land / region och språk').selectOption({ label: 'Tyskland och Österrike (EUR) · Deutsch' });
    await page.getByRole('button', { name: 'Byt' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
    await expect(page.getByRole('group', { name: /^Farbe: / })).toBeVisible();
    await expect(page.getByRole('radio', { name: /^Mitternachtsblau/ })).toBeVisible();
    const switcher = page.getByLabel('Land / Region und Sprache');
    await expect(switcher.locator('option:checked')).toHaveText('Deutschland & Österreich (EUR) · Deutsch');
    await expect(switcher.locator('option[value="se|sv-SE"]')).toHaveText('Schweden (SEK) · Svenska');
  });
});
