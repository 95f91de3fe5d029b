import { BASE_URL, expect, expectAccessible, openProduct, pageWithoutScripts, shot, test, useLocale } from './helpers';

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
  for (const [market, locale] of [
    ['se', 'sv-SE'],
    ['se', 'en-SE'],
    ['de', 'de-DE'],
    ['de', 'en-DE'],
    ['us', 'en-US'],
  ] as const) {
    await context.addCookies([
      { name: 'market', value: market, url: BASE_URL },
      { name: 'locale', value: locale, url: BASE_URL },
    ]);
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

test('list pages on a phone: the filters fold behind one button and the first product is on the first screen', async ({
  page,
  context,
}, testInfo) => {
  await useLocale(context);
  for (const path of ['/search?q=mug', '/products', '/collections/kitchen']) {
    await page.goto(path);
    const first = page.getByRole('main').locator('.product-grid > li').first();
    await expect(first).toBeVisible();
    // Measured from the top of the page, as it opens (it was 1,004 px for the search, 1,384 px for a collection).
    const top = await first.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
    expect(top, path).toBeLessThan(844);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
    // The form is folded: its fields show only once the one button opens it.
    const sort = page.getByRole('form', { name: 'Filters' }).getByLabel('Sort by');
    await expect(sort, path).toBeHidden();
    await page.locator('summary', { hasText: 'Filter and sort' }).click();
    await expect(sort, path).toBeVisible();
  }
  await shot(page, testInfo, 'collection-filters-open');
  await expectAccessible(page, testInfo, 'collection-filters-open-mobile');
  // Applied, the list comes back with the filters folded again and says how many are in effect.
  await page
    .getByRole('form', { name: 'Filters' })
    .getByRole('checkbox', { name: /^In stock only/ })
    .check();
  await page.getByRole('form', { name: 'Filters' }).getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/\/collections\/kitchen\?available=true$/);
  await expect(page.locator('summary', { hasText: 'Filter and sort' })).toContainText('1 in effect');
  await expect(page.getByRole('form', { name: 'Filters' }).getByLabel('Sort by')).toBeHidden();
  await expectAccessible(page, testInfo, 'collection-filtered-mobile');
});

test('the folded filters open and apply without JavaScript', async ({ browser }) => {
  const { context, page } = await pageWithoutScripts(browser);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/products');
  const form = page.getByRole('form', { name: 'Filters' });
  await expect(form.getByLabel('Sort by')).toBeHidden();
  await page.locator('summary', { hasText: 'Filter and sort' }).click();
  await form.getByLabel('Sort by').selectOption({ label: 'Price, low to high' });
  await form.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/\/products\?sort=price-asc$/);
  await expect(page.getByRole('main').locator('.product-grid > li').first()).toBeInViewport();
  await context.close();
});
