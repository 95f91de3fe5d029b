import { expect, test } from './helpers';
import { creds } from '../support/api';
import { startOwnServer, type OwnServer } from './own-server';

// The shop running against an API that does not answer (nothing listens on port 9).
test.describe('when the API is down', () => {
  // One server for the file's tests, in one worker.
  test.describe.configure({ mode: 'serial' });
  let server: OwnServer;
  test.beforeAll(async () => {
    server = await startOwnServer({ SITE_API_CREDENTIAL: creds().storefront, SITE_API_BASE_URL: 'http://127.0.0.1:9' });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('pages show a clear message instead of a crash page', async ({ browser }) => {
    const page = await browser.newPage({ baseURL: server.url });
    for (const path of ['/', '/products/linen-tote-bag', '/cart']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'We couldn’t load this page' })).toBeVisible();
      await expect(page.getByText('The shop is having trouble right now. Please try again in a moment.')).toBeVisible();
      await expect(page.locator('body')).not.toContainText(/ECONNREFUSED|at .*\.js:\d+|SiteApi/);
    }
    const log = await server.loggedOutput();
    expect(log).not.toContain(creds().storefront);
    await page.close();
  });

  test('the catalog’s own images are still served', async ({ request }) => {
    for (const path of ['/collections/kitchen.svg', '/products/mug-white.svg']) {
      const res = await request.get(`${server.url}${path}`);
      expect(res.status(), path).toBe(200);
      expect(res.headers()['content-type'], path).toBe('image/svg+xml');
    }
  });

  // One test a language: nine pages each, which on a busy host take a good part of a
  // test's minute (all four languages in one test took 55 s in CI).
  const cases: [string | null, string][] = [
    [null, 'We couldn’t load this page'],
    ['en-SE', 'We couldn’t load this page'],
    ['de-DE', 'Die Seite konnte nicht geladen werden'],
    ['sv-SE', 'Vi kunde inte visa sidan'],
  ];
  for (const [locale, title] of cases) {
    test(`pages answer 503 with Retry-After and a title in the shopper’s language (${locale ?? 'no locale cookie'})`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ baseURL: server.url });
      if (locale) await context.addCookies([{ name: 'locale', value: locale, url: server.url }]);
      const page = await context.newPage();
      for (const path of [
        '/',
        '/products',
        '/products/linen-tote-bag',
        '/collections/kitchen',
        '/cart',
        '/checkout/cs_123',
        '/search?q=mug',
        '/legal/imprint',
        '/returns',
      ]) {
        const res = await page.goto(path);
        expect(res?.status(), `${path} ${locale}`).toBe(503);
        expect(res?.headers()['retry-after']).toBeTruthy();
        expect(res?.headers()['cache-control']).toContain('no-store');
        await expect(page).toHaveTitle(title);
        await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      }
      await context.close();
    });
  }
});
