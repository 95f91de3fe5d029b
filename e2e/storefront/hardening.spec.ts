import { expect, test, useLocale } from './helpers';

test.describe('bad input on list pages', () => {
  for (const path of ['/products', '/collections/kitchen']) {
    test(`${path} with a cursor the API refuses shows the first page`, async ({ page, context }) => {
      await useLocale(context);
      const first = await page.goto(path);
      expect(first?.status()).toBe(200);
      const firstCards = await page.getByRole('main').getByRole('link').allTextContents();

      for (const cursor of ['abc', 'eyJub3QiOiJhIGN1cnNvciJ9', '%E2%9C%93']) {
        const res = await page.goto(`${path}?cursor=${cursor}`);
        expect(res?.status(), cursor).toBe(200);
        await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
        expect(await page.getByRole('main').getByRole('link').allTextContents()).toEqual(firstCards);
        // It is the first page: no way "back" to one.
        await expect(page.getByRole('link', { name: 'First page' })).toHaveCount(0);
      }
    });
  }
});

test.describe('what does not exist answers 404 with a title in the shopper’s language', () => {
  const missing = ['/products/no-such-product', '/collections/no-such-collection', '/checkout/cs_nosuchsession'];
  test('English', async ({ page, context }) => {
    await useLocale(context);
    for (const path of missing) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(404);
      // In the HTML as sent (what a crawler reads), not only after scripts ran.
      expect(await res!.text()).toContain('<title>Page not found | Nordlys Home &amp; Goods</title>');
      await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    }
  });

  test('the Site’s default language (Swedish) without cookies', async ({ request }) => {
    for (const path of missing) {
      const res = await request.get(path, { failOnStatusCode: false });
      expect(res.status(), path).toBe(404);
      expect(await res.text()).toContain('<title>Sidan hittades inte | Nordlys Home &amp; Goods</title>');
    }
  });
});

test('a cart count asked for before an add never replaces the count the add answered', async ({ page, context }) => {
  await useLocale(context);
  // The count a cached page asks for once it has hydrated is held back until the add has
  // answered: on a busy server it is simply slow. It was read before the add, so it is 0.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let requested!: () => void;
  const countRequested = new Promise<void>((resolve) => (requested = resolve));
  let handed!: (outcome: string) => void;
  const handedOver = new Promise<string>((resolve) => (handed = resolve));
  await page.route(
    '**/shop-api/cart-count',
    async (route) => {
      const response = await route.fetch();
      requested();
      await held;
      // delivered to the page, or refused because the page has given up on it
      handed(
        await route.fulfill({ response }).then(
          () => 'delivered',
          () => 'dropped',
        ),
      );
    },
    { times: 1 },
  );
  await page.goto('/products/fjord-ceramic-mug');
  await countRequested; // hydrated, and the count is on its way

  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByText('Added to your cart.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Cart 1', exact: true })).toBeVisible();

  release();
  await handedOver;
  // Whatever the page does with the old answer, it has done once a later round trip has
  // come back and its queued work has run.
  await page.evaluate(async () => {
    await fetch('/robots.txt', { cache: 'no-store' });
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
  await expect(page.getByRole('link', { name: 'Cart 1', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Cart 0', exact: true })).toHaveCount(0);
});

test.describe('/visit (where the links in mails lead)', () => {
  test('a target with characters beyond Latin-1 goes on percent-encoded, never a 500', async ({ request }) => {
    const cases: [string, string][] = [
      ['/%E2%82%AC', '/%E2%82%AC'],
      ['/products/%E5%95%86%E5%93%81?variant=%E4%B8%AD', '/products/%E5%95%86%E5%93%81?variant=%E4%B8%AD'],
      [encodeURIComponent('/商品#見'), '/%E5%95%86%E5%93%81#%E8%A6%8B'],
      ['/a%ED%A0%80b', '/a%EF%BF%BD%EF%BF%BD%EF%BF%BDb'], // bytes that are not UTF-8: one U+FFFD each
    ];
    for (const [to, location] of cases) {
      const res = await request.get(`/visit?market=se&locale=en-SE&to=${to}`, { maxRedirects: 0 });
      expect(res.status(), to).toBe(303);
      expect(res.headers()['location'], to).toBe(location);
    }
    // Never another site.
    for (const to of ['//evil.example', '/\\evil.example', 'https://evil.example/']) {
      const res = await request.get(`/visit?to=${encodeURIComponent(to)}`, { maxRedirects: 0 });
      expect(res.headers()['location'], to).toBe('/');
    }
  });
});
