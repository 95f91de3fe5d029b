import type { Locator, Page } from '@playwright/test';
import { BASE_URL, expect, expectAccessible, queryDb, shot, test, typeUntilSuggested, useLocale } from './helpers';

/** A card's price as a number: "From 1,234.00 kr", "189,00 kr", "€12.50" (thousands separators dropped). */
function priceOf(text: string): number {
  const digits = text
    .replace(/[^\d.,]/g, '')
    .replace(/[.,](?=\d{3}(?:\D|$))/g, '')
    .replace(',', '.');
  const value = Number(digits);
  if (!Number.isFinite(value) || digits === '') throw new Error(`no price in ${JSON.stringify(text)}`);
  return value;
}

/** The product cards of a list page: title and lowest price, in the order shown. */
async function cards(page: Page): Promise<{ title: string; price: number }[]> {
  const items = page.getByRole('main').locator('.product-grid > li');
  const out: { title: string; price: number }[] = [];
  for (const item of await items.all()) {
    const title = (await item.getByRole('heading', { level: 2 }).textContent()) ?? '';
    out.push({ title, price: priceOf((await item.locator('.price > span').first().textContent()) ?? '') });
  }
  return out;
}

function filters(page: Page): Locator {
  return page.getByRole('form', { name: 'Filters' });
}

/** The count a filter's checkbox shows beside its value ("Sand (3)"). */
async function countBeside(checkbox: Locator): Promise<number> {
  const label = (await checkbox.locator('xpath=ancestor::label[1]').textContent()) ?? '';
  return Number(/\((\d+)\)/.exec(label)?.[1]);
}

/** The result count line ("12 products") as a number. */
async function shownCount(page: Page): Promise<number> {
  const text = (await page.locator('#list-count').textContent()) ?? '';
  return Number(/(\d+)/.exec(text)?.[1]);
}

test.describe('search', () => {
  test('the header box suggests products as you type; arrows and Enter open one, Escape closes', async ({ page, context }, testInfo) => {
    await useLocale(context);
    const apiCalls: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/site/v1')) apiCalls.push(r.url());
    });
    await page.goto('/');
    const box = await typeUntilSuggested(page, 'mug');
    const listbox = page.getByRole('listbox', { name: 'Suggestions' });
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    await expect(box).toHaveAttribute('aria-controls', (await listbox.getAttribute('id'))!);
    const options = listbox.getByRole('option');
    await expect(options.filter({ hasText: 'Fjord Ceramic Mug' })).toHaveCount(1);
    // Each suggestion shows a picture and a price in the shopper's currency.
    await expect(options.first().locator('img')).toHaveAttribute('src', /\.svg$/);
    await expect(options.first()).toContainText('kr');
    await shot(page, testInfo, 'search-suggestions');

    await box.press('ArrowDown');
    await box.press('ArrowDown');
    await box.press('ArrowUp');
    const first = options.first();
    await expect(first).toHaveAttribute('aria-selected', 'true');
    await expect(box).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id'))!);
    await expect(options.nth(1)).toHaveAttribute('aria-selected', 'false');
    const title = (await first.locator('.suggestion-title').textContent())!;
    await box.press('Enter');
    await expect(page).toHaveURL(/\/products\/[a-z0-9-]+$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);

    // The cached product page has the box too; Escape closes its suggestions.
    const again = await typeUntilSuggested(page, 'kettle');
    await expect(page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option').first()).toContainText('Kettle');
    await again.press('Escape');
    await expect(again).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('listbox', { name: 'Suggestions', includeHidden: true })).toBeHidden();
    await expect(again).toHaveValue('kettle');
    // Nothing found: no list, and the status line (read out, not shown) says so.
    await again.fill('zzqqxxnothing');
    await expect(page.locator('.search-box [role="status"]')).toHaveText('No matching products');
    await expect(again).toHaveAttribute('aria-expanded', 'false');
    await again.fill('kettle');
    await expect(page.getByRole('listbox', { name: 'Suggestions' })).toBeVisible();
    // Enter without a chosen suggestion searches.
    await again.press('Enter');
    await expect(page).toHaveURL(/\/search\?q=kettle$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Results for “kettle”');
    // The browser never called the API itself (the credential stays on the server).
    expect(apiCalls).toEqual([]);
  });

  test('the search page speaks the shopper’s language (en, sv, de)', async ({ browser }) => {
    const cases = [
      { market: 'se', locale: 'en-SE', title: 'Results for “mug”', sort: 'Sort by', apply: 'Apply', count: /\d+ products?/ },
      { market: 'se', locale: 'sv-SE', title: 'Resultat för ”mug”', sort: 'Sortera efter', apply: 'Använd', count: /\d+ produkter?/ },
      { market: 'de', locale: 'de-DE', title: 'Ergebnisse für „mug“', sort: 'Sortieren nach', apply: 'Anwenden', count: /\d+ Produkte?/ },
    ];
    for (const c of cases) {
      const context = await browser.newContext({ baseURL: BASE_URL });
      await context.addCookies([
        { name: 'market', value: c.market, url: BASE_URL },
        { name: 'locale', value: c.locale, url: BASE_URL },
      ]);
      const page = await context.newPage();
      await page.goto('/search?q=mug');
      await expect(page).toHaveTitle(new RegExp(`^${c.title}`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(c.title);
      await expect(page.locator('html')).toHaveAttribute('lang', c.locale);
      await expect(page.getByLabel(c.sort)).toBeVisible();
      await expect(page.getByRole('button', { name: c.apply, exact: true }).last()).toBeVisible();
      await expect(page.locator('#list-count')).toHaveText(c.count);
      await context.close();
    }
  });

  test('sort orders the results by their real prices', async ({ page, context }) => {
    await useLocale(context);
    await page.goto('/search?q=lamp');
    const relevance = await cards(page);
    expect(relevance.length).toBeGreaterThanOrEqual(3);

    await filters(page).getByLabel('Sort by').selectOption({ label: 'Price, low to high' });
    await filters(page).getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/[?&]sort=price-asc/);
    await expect(page).toHaveURL(/[?&]q=lamp/);
    const ascending = await cards(page);
    expect(ascending.map((c) => c.title).sort()).toEqual(relevance.map((c) => c.title).sort());
    expect(ascending.map((c) => c.price)).toEqual([...ascending.map((c) => c.price)].sort((a, b) => a - b));

    await filters(page).getByLabel('Sort by').selectOption({ label: 'Price, high to low' });
    await filters(page).getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/[?&]sort=price-desc/);
    const descending = await cards(page);
    expect(descending.map((c) => c.price)).toEqual([...descending.map((c) => c.price)].sort((a, b) => b - a));
    expect(descending[0]!.price).toBeGreaterThan(descending.at(-1)!.price);
  });

  test('a filter narrows the results, and its count is the number shown', async ({ page, context }, testInfo) => {
    await useLocale(context);
    await page.goto('/search');
    const total = await shownCount(page);
    expect(total).toBeGreaterThan(24);
    const sand = filters(page).getByRole('checkbox', { name: /^Sand \(\d+\)$/ });
    const expected = await countBeside(sand);
    expect(expected).toBeGreaterThan(1);
    expect(expected).toBeLessThan(total);
    await sand.check();
    await filters(page).getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/[?&]option=Color%3ASand/);
    await expect(page.locator('#list-count')).toHaveText(`${expected} products`);
    expect((await cards(page)).length).toBe(expected);
    await expect(filters(page).getByRole('checkbox', { name: /^Sand/ })).toBeChecked();

    // In stock only, on top: its count (counted with the Sand filter) is again what is shown.
    const inStock = filters(page).getByRole('checkbox', { name: /^In stock only/ });
    const stockCount = await countBeside(inStock);
    await inStock.check();
    await filters(page).getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/[?&]available=true/);
    await expect(page.locator('#list-count')).toHaveText(stockCount === 1 ? '1 product' : `${stockCount} products`);
    expect((await cards(page)).length).toBe(stockCount);
    await expect(page.getByRole('main').locator('.product-grid')).not.toContainText('Sold out');
    await shot(page, testInfo, 'search-filtered');

    // A link takes one filter away again.
    await page.getByRole('link', { name: 'Remove “In stock only”' }).click();
    await expect(page).not.toHaveURL(/available=/);
    await expect(page.locator('#list-count')).toHaveText(`${expected} products`);
  });

  test('no results: an honest empty state with links that remove a filter or lead to collections', async ({ page, context }, testInfo) => {
    await useLocale(context);
    await page.goto('/search?q=mug&priceMax=1');
    await expect(page.getByRole('heading', { level: 2, name: 'No products found' })).toBeVisible();
    await expect(page.getByText('Nothing matches “mug” with these filters.')).toBeVisible();
    await expect(page.locator('#list-count')).toHaveText('0 products');
    await shot(page, testInfo, 'search-empty');
    const remove = page.getByRole('link', { name: /^Remove “Price up to/ });
    await expect(remove).toHaveCount(1);
    await remove.click();
    await expect(page).toHaveURL(/\/search\?q=mug$/);
    expect((await cards(page)).length).toBeGreaterThan(0);

    await page.goto('/search?q=zzqqxxnothing');
    await expect(page.getByRole('heading', { level: 2, name: 'No products found' })).toBeVisible();
    await expect(page.getByText('Nothing matches “zzqqxxnothing”.')).toBeVisible();
    await expect(page.getByRole('link', { name: /^Remove/ })).toHaveCount(0);
    await page.getByRole('main').getByRole('link', { name: 'Kitchen' }).click();
    await expect(page).toHaveURL(/\/collections\/kitchen$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Kitchen' })).toBeVisible();
  });

  test('bad values in the URL are left out with a message, never a 500', async ({ page, context }) => {
    await useLocale(context);
    for (const [query, named] of [
      ['q=mug&priceMin=abc&sort=cheapest', /priceMin, sort|sort, priceMin/],
      // Valid in form, refused by the API: a minimum above the maximum, more decimals than SEK has.
      ['q=mug&priceMin=500&priceMax=100', /priceMin/],
      ['q=mug&priceMax=100.123', /priceMax/],
      ['q=mug&sort=price-asc&cursor=not-a-cursor', null],
    ] as const) {
      const res = await page.goto(`/search?${query}`);
      expect(res?.status(), query).toBe(200);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Results for “mug”');
      expect((await cards(page)).length, query).toBeGreaterThan(0);
      if (named) await expect(page.getByRole('status').filter({ hasText: 'could not be used' })).toContainText(named);
    }
    // A collection page alike.
    const res = await page.goto('/collections/kitchen?sort=cheapest&priceMin=500&priceMax=100');
    expect(res?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'Kitchen' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'could not be used' })).toContainText(/sort.*priceMin/);
    expect((await cards(page)).length).toBeGreaterThan(0);
  });

  test('without JavaScript the box and the filters are plain GET forms', async ({ browser }) => {
    const context = await browser.newContext({ baseURL: BASE_URL, javaScriptEnabled: false });
    await useLocale(context);
    const page = await context.newPage();
    await page.goto('/products/linen-tote-bag');
    const box = page.getByRole('combobox', { name: 'Search products' });
    await box.fill('mug');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/search\?q=mug$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Results for “mug”');
    expect((await cards(page)).map((c) => c.title)).toContain('Fjord Ceramic Mug');

    await filters(page).getByLabel('Sort by').selectOption('price-desc');
    await filters(page)
      .getByRole('checkbox', { name: /^In stock only/ })
      .check();
    await filters(page).getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/[?&]q=mug(&|$)/);
    await expect(page).toHaveURL(/[?&]sort=price-desc/);
    await expect(page).toHaveURL(/[?&]available=true/);
    const shown = await cards(page);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.map((c) => c.price)).toEqual([...shown.map((c) => c.price)].sort((a, b) => b - a));
    // The words change in the same form, the filters stay.
    await filters(page).getByRole('searchbox', { name: 'Search' }).fill('lamp');
    await filters(page).getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Results for “lamp”');
    await expect(page).toHaveURL(/\/search\?q=lamp&sort=price-desc&available=true$/);
    await context.close();
  });

  test('axe: the search page with results and the open combobox', async ({ page, context }, testInfo) => {
    await useLocale(context);
    await page.goto('/search?q=mug&option=Color%3AWhite');
    await expect(page.getByRole('main').locator('.product-grid > li').first()).toBeVisible();
    await expectAccessible(page, testInfo, 'search');
    await typeUntilSuggested(page, 'vase');
    await expectAccessible(page, testInfo, 'search-combobox');
  });

  test('a collection page sorts and filters with the same form', async ({ page, context }, testInfo) => {
    await useLocale(context);
    await page.goto('/collections/kitchen');
    // Without sort, the collection's own order.
    await expect(page.getByRole('main').getByRole('heading', { level: 2 }).first()).toHaveText('Morning Coffee Set');
    const all = await shownCount(page);
    expect((await cards(page)).length).toBe(all);

    await filters(page).getByLabel('Sort by').selectOption({ label: 'Price, low to high' });
    const inStock = filters(page).getByRole('checkbox', { name: /^In stock only/ });
    const stockCount = await countBeside(inStock);
    await inStock.check();
    await filters(page).getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/\/collections\/kitchen\?sort=price-asc&available=true$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Kitchen' })).toBeVisible();
    const shown = await cards(page);
    expect(shown.length).toBe(stockCount);
    expect(shown.length).toBeGreaterThan(1);
    expect(shown.map((c) => c.price)).toEqual([...shown.map((c) => c.price)].sort((a, b) => a - b));
    await expect(page.locator('#list-count')).toHaveText(`${stockCount} products`);
    await shot(page, testInfo, 'collection-filtered');

    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(/\/collections\/kitchen$/);
    await expect(page.getByRole('main').getByRole('heading', { level: 2 }).first()).toHaveText('Morning Coffee Set');
  });

  test('all products sorts and filters like search, by name in the shopper’s language by default', async ({ page, context }) => {
    // By name in German, not by handle (an English word in every language).
    await useLocale(context, 'de', 'de-DE');
    await page.goto('/products');
    const sortDe = page.getByRole('form', { name: 'Filter' }).getByLabel('Sortieren nach');
    await expect(sortDe).toHaveValue('');
    await expect(sortDe.locator('option:checked')).toHaveText('Name, A–Z');
    const grid = page.getByRole('main').locator('.product-grid > li');
    const titles = await grid.getByRole('heading', { level: 2 }).allTextContents();
    const handles = await grid.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')!.replace('/products/', '')));
    expect(titles.length).toBe(24);
    const collator = new Intl.Collator('de-DE', { sensitivity: 'base', numeric: true });
    expect(titles).toEqual([...titles].sort(collator.compare));
    expect(handles).not.toEqual([...handles].sort());

    await useLocale(context);
    await page.goto('/products');
    await filters(page).getByLabel('Sort by').selectOption({ label: 'Price, low to high' });
    const inStock = filters(page).getByRole('checkbox', { name: /^In stock only/ });
    const stockCount = await countBeside(inStock);
    await inStock.check();
    await filters(page).getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/\/products\?sort=price-asc&available=true$/);
    await expect(page.getByRole('heading', { level: 1, name: 'All products' })).toBeVisible();
    await expect(page.locator('#list-count')).toHaveText(`${stockCount} products`);
    const shown = await cards(page);
    expect(shown.map((c) => c.price)).toEqual([...shown.map((c) => c.price)].sort((a, b) => a - b));
    // ?sort= in a link is honoured too.
    await page.goto('/products?sort=price-desc');
    const dear = await cards(page);
    expect(dear.map((c) => c.price)).toEqual([...dear.map((c) => c.price)].sort((a, b) => b - a));
  });

  test('a filter on a colour shows each product as its variant of that colour, and counts it so', async ({ page, context }) => {
    await useLocale(context);
    const bag = (p: Page) =>
      p
        .getByRole('main')
        .locator('.product-grid > li')
        .filter({ has: p.getByRole('heading', { name: 'Linen Tote Bag', exact: true }) });
    await page.goto('/products?option=Color%3ANatural');
    const natural = await bag(page).locator('img').getAttribute('src');
    await expect(bag(page).locator('.badge')).not.toHaveClass(/badge-out_of_stock/);

    // The bag's black variant is sold out (its natural one is not): under Black the card is the black one.
    await page.goto('/products?option=Color%3ABlack');
    await expect(bag(page).locator('.badge')).toHaveClass(/badge-out_of_stock/);
    const black = await bag(page).locator('img').getAttribute('src');
    expect(black).not.toBe(natural);
    const variant = (
      await queryDb<{ id: string }>(`select v.id from product_variants v join products p on p.id = v.product_id
      where p.handle = 'linen-tote-bag' and json_extract(v.options, '$.Color') = 'Black'`)
    )[0]!.id;
    await expect(bag(page).getByRole('link')).toHaveAttribute('href', `/products/linen-tote-bag?variant=${variant}`);
    // "In stock only" counts the black variants that can be bought: the bag is not among them.
    const inStock = filters(page).getByRole('checkbox', { name: /^In stock only/ });
    const stockCount = await countBeside(inStock);
    await inStock.check();
    await filters(page).getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/\/products\?available=true&option=Color%3ABlack$/);
    await expect(page.locator('#list-count')).toHaveText(`${stockCount} products`);
    await expect(bag(page)).toHaveCount(0);
    await expect(page.getByRole('main').locator('.product-grid > li .badge-out_of_stock')).toHaveCount(0);
  });
});
