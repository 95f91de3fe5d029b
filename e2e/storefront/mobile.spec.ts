import { BASE_URL, expect, expectAccessible, openProduct, shot, test, useLocale } from './helpers';

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

test('the market and language choice is whole on a small phone, in every language', async ({ page, context }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  for (const [market, locale] of [['se', 'sv-SE'], ['se', 'en-SE'], ['de', 'de-DE'], ['de', 'en-DE'], ['us', 'en-US']] as const) {
    await context.addCookies([{ name: 'market', value: market, url: BASE_URL }, { name: 'locale', value: locale, url: BASE_URL }]);
    await page.goto('/');
    const select = page.locator('#preference');
    await expect(select).toBeVisible();
    // Each choice, as the closed select would show it, against the room the select gives its text.
    const { room, widest, topbarFits } = await select.evaluate((el: HTMLSelectElement) => {
      const style = getComputedStyle(el);
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const arrow = 20; // the closed select's own arrow, beside its padding
      return {
        room: el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - arrow,
        widest: Math.max(...[...el.options].map((option) => ctx.measureText(option.text).width)),
        topbarFits: document.documentElement.scrollWidth <= 360,
      };
    });
    expect(widest, `${market} ${locale}`).toBeLessThanOrEqual(room);
    expect(topbarFits).toBe(true);
    await expect(page.locator('.market-form button')).toBeInViewport();
  }
});
