import { BASE_URL, expect, expectAccessible, openProduct, shot, test, useLocale } from './helpers';

test.describe('browsing', () => {
  test('home → collection → product, with server-rendered HTML and metadata', async ({ page, context }, testInfo) => {
    await useLocale(context);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Featured products' })).toBeVisible();
    // Featured products show a price and an availability.
    const featured = page.getByRole('region', { name: 'Featured products' }).getByRole('listitem');
    await expect(featured.first()).toContainText('kr');
    await expect(featured.first()).toContainText(/In stock|Only a few left|Sold out|Available for preorder/);
    await shot(page, testInfo, 'home');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Kitchen' }).click();
    await expect(page).toHaveURL(/\/collections\/kitchen$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Kitchen' })).toBeVisible();
    await expect(page).toHaveTitle(/Kitchen/);
    // The collection's stored order: the merchandiser put the coffee set first.
    await expect(page.getByRole('main').getByRole('heading', { level: 2 }).first()).toHaveText('Morning Coffee Set');
    await shot(page, testInfo, 'collection');

    await page.getByRole('link', { name: 'Fjord Ceramic Mug' }).first().click();
    await expect(page).toHaveURL(/\/products\/fjord-ceramic-mug/);
    await expect(page.getByRole('heading', { level: 1, name: 'Fjord Ceramic Mug' })).toBeVisible();
    await shot(page, testInfo, 'product');
  });

  test("a product's picture is described in the shopper's language, for the colour picked", async ({ page, context }) => {
    for (const [market, locale, white, sand, colour] of [
      ['se', 'sv-SE', 'Fjord keramikmugg i vit', 'Fjord keramikmugg i sand', 'Sand'],
      ['de', 'de-DE', 'Fjord Keramikbecher in Weiß', 'Fjord Keramikbecher in Sand', 'Sand'],
      ['se', 'en-SE', 'Fjord Ceramic Mug in white', 'Fjord Ceramic Mug in sand', 'Sand'],
    ] as const) {
      await context.addCookies([
        { name: 'market', value: market, url: BASE_URL },
        { name: 'locale', value: locale, url: BASE_URL },
      ]);
      await openProduct(page, '/products/fjord-ceramic-mug');
      const gallery = page.locator('.gallery-main');
      await expect(gallery.getByRole('img', { name: white, exact: true })).toBeVisible();
      await page.getByRole('radio', { name: new RegExp(`^${colour}`) }).check();
      await expect(gallery.getByRole('img', { name: sand, exact: true })).toBeVisible();
    }
  });

  test('catalog pages are complete in the server HTML (no JavaScript needed)', async ({ request }) => {
    const headers = { Cookie: 'market=se; locale=en-SE' };
    const html = await (await request.get('/products/fjord-ceramic-mug', { headers })).text();
    expect(html).toContain('<h1>Fjord Ceramic Mug</h1>');
    expect(html).toMatch(/<title>Fjord Ceramic Mug[^<]*<\/title>/);
    expect(html).toMatch(/<meta name="description" content="[^"]+"/);
    expect(html).toMatch(/<link rel="canonical" href="http:\/\/127\.0\.0\.1:\d+\/products\/fjord-ceramic-mug"/);
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1];
    expect(ld).toBeTruthy();
    const product = JSON.parse(ld!);
    expect(product).toMatchObject({
      '@type': 'Product',
      name: 'Fjord Ceramic Mug',
      sku: expect.any(String),
      description: expect.any(String),
    });
    expect(product.image[0]).toMatch(/^http:\/\/.*\.svg$/);
    expect(product.offers.length).toBeGreaterThan(1);
    for (const offer of product.offers) {
      expect(offer).toMatchObject({
        '@type': 'Offer',
        priceCurrency: 'SEK',
        availability: expect.stringMatching(/^https:\/\/schema\.org\//),
      });
      expect(offer.price).toMatch(/^\d+\.\d{2}$/);
    }
    expect(product.offers.map((o: { availability: string }) => o.availability)).toContain('https://schema.org/LimitedAvailability');

    const collection = await (await request.get('/collections/textiles', { headers })).text();
    expect(collection).toContain('Linen Tote Bag');
    const products = await (await request.get('/products', { headers })).text();
    expect(products).toMatch(/rel="next"/);
  });

  test('unknown and draft products are a 404 page, not a crash', async ({ page, context }) => {
    await useLocale(context);
    for (const path of [
      '/products/draft-winter-parka',
      '/products/no-such-thing',
      '/collections/no-such-thing',
      '/checkout/cs_doesnotexist',
    ]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    }
  });

  test('sitemap.xml and robots.txt come from the live catalog', async ({ request }) => {
    const sitemap = await request.get('/sitemap.xml');
    expect(sitemap.status()).toBe(200);
    const xml = await sitemap.text();
    expect(xml).toContain('/products/linen-tote-bag</loc>');
    expect(xml).toContain('/collections/kitchen</loc>');
    expect(xml).not.toContain('draft-winter-parka');
    expect((xml.match(/\/products\/[a-z0-9-]+<\/loc>/g) ?? []).length).toBeGreaterThanOrEqual(40);
    const robots = await (await request.get('/robots.txt')).text();
    expect(robots).toMatch(/Sitemap: http:\/\/127\.0\.0\.1:\d+\/sitemap\.xml/);
    expect(robots).toContain('Disallow: /checkout/');
  });

  test('the catalog’s own images may be kept by the browser for an hour', async ({ page, context, request }) => {
    await useLocale(context);
    // A home page shows both kinds: collection tiles and product cards.
    await page.goto('/');
    const sources = await page
      .locator('main img')
      .evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src')!).filter((src) => src.startsWith('/')));
    expect(sources.some((src) => src.startsWith('/collections/'))).toBe(true);
    expect(sources.some((src) => src.startsWith('/products/'))).toBe(true);
    for (const src of new Set(sources)) {
      const res = await request.get(src);
      expect(res.status(), src).toBe(200);
      expect(res.headers()['content-type'], src).toMatch(/^image\//);
      expect(res.headers()['cache-control'], src).toBe('public, max-age=3600, stale-while-revalidate=86400');
    }
  });

  test('products list pages forward with a cursor', async ({ page, context }) => {
    await useLocale(context);
    await page.goto('/products');
    const first = await page.getByRole('main').getByRole('heading', { level: 2 }).allTextContents();
    expect(first).toHaveLength(24);
    await page.getByRole('link', { name: 'Next page' }).click();
    await expect(page).toHaveURL(/cursor=/);
    const second = await page.getByRole('main').getByRole('heading', { level: 2 }).allTextContents();
    expect(second.length).toBeGreaterThan(0);
    expect(second.filter((t) => first.includes(t))).toEqual([]);
  });

  test('axe: home and product pages', async ({ page, context }, testInfo) => {
    await useLocale(context);
    await page.goto('/');
    await expectAccessible(page, testInfo, 'home');
    await page.goto('/products/linen-tote-bag');
    await expectAccessible(page, testInfo, 'product');
  });
});
