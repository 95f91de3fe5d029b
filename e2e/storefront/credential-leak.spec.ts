import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, openProduct, test } from './helpers';
import { creds } from '../support/api';
import { startOwnServer, type OwnServer } from './own-server';

const LIKE_A_CREDENTIAL = /site_(core|extended)_[A-Za-z0-9]{32,}/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** Where a text leaks the credential or anything shaped like one. */
function leaks(text: string, secret: string): string[] {
  const found: string[] = [];
  if (text.includes(secret)) found.push('the storefront credential');
  const like = LIKE_A_CREDENTIAL.exec(text);
  if (like) found.push(`a credential-like string (${like[0].slice(0, 14)}…)`);
  return found;
}

test.describe('the Site credential stays on the server', () => {
  test.describe.configure({ timeout: 90_000 });
  let server: OwnServer;
  const secret = () => creds().storefront;

  test.beforeAll(async () => {
    server = await startOwnServer({ SITE_API_CREDENTIAL: secret() });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('the scanner itself finds a planted credential', () => {
    expect(leaks(`x ${secret()} y`, secret())).toHaveLength(2);
    expect(leaks(`site_core_${'a'.repeat(32)}`, 'unrelated')).toHaveLength(1);
    expect(leaks('site_core_short', 'unrelated')).toEqual([]);
  });

  test('no build output file under the static folder holds it', () => {
    const dist = process.env.NEXT_DIST_DIR ?? '.next';
    const all = files(join(dist, 'static'));
    expect(all.length).toBeGreaterThan(5);
    const bad = all.flatMap((path) => leaks(readFileSync(path, 'latin1'), secret()).map((what) => `${path}: ${what}`));
    expect(bad).toEqual([]);
  });

  test('no page, script, cookie or log line shows it during a whole shopping trip', async ({ browser }) => {
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    const seen: string[] = [];
    page.on('response', async (res) => {
      const headers = Object.entries(await res.allHeaders())
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n');
      const body = await res.body().catch(() => Buffer.from(''));
      for (const what of leaks(`${headers}\n${body.toString('latin1')}`, secret())) seen.push(`${res.url()}: ${what}`);
    });

    for (const path of ['/', '/products', '/collections/kitchen', '/products/no-such-thing', '/sitemap.xml', '/robots.txt']) {
      await page.goto(path);
    }
    // The search page, and the header box's suggestions (the shop's JSON endpoint), once hydrated.
    await page.goto('/search?q=mug&sort=price-asc');
    const box = page.getByRole('combobox', { name: /Sök produkter|Search products/ });
    await expect(async () => {
      await box.fill('');
      await box.pressSequentially('mug');
      await expect(page.getByRole('listbox', { name: /Förslag|Suggestions/ })).toBeVisible({ timeout: 3_000 });
    }).toPass({ timeout: 30_000 });
    await openProduct(page, '/products/linen-tote-bag');
    await page.getByRole('radio', { name: /^Natur/ }).check(); // Natural, or Natur in Swedish
    await page.getByRole('button', { name: /varukorgen|Add to cart/ }).click();
    await expect(page.getByRole('link', { name: /^(Varukorg|Cart) 1$/ })).toBeVisible();
    await page.getByRole('radio', { name: /Black|Svart/ }).check();
    await page.goto('/cart');
    await page.getByRole('button', { name: /Till kassan|Checkout/ }).click();
    await expect(page).toHaveURL(/\/checkout\/cs_/);
    await page.getByRole('combobox', { name: /Gatuadress|Street address/ }).fill('Storg');
    await expect(
      page
        .getByRole('listbox', { name: /Adressförslag|Address suggestions/ })
        .getByRole('option')
        .first(),
    ).toBeVisible();

    const cookies = await context.cookies();
    expect(cookies.map((c) => c.name).sort()).toEqual(expect.arrayContaining(['anon_id', 'cart']));
    for (const c of cookies) expect(leaks(`${c.name}=${c.value}`, secret()), c.name).toEqual([]);
    // The HTML a crawler gets, without a browser in between.
    for (const path of ['/', '/products/linen-tote-bag', '/cart']) {
      const html = await (await context.request.get(path)).text();
      expect(leaks(html, secret()), path).toEqual([]);
    }
    await context.close();

    expect(seen).toEqual([]);
    const log = await server.loggedOutput();
    expect(log).toContain('Ready');
    expect(leaks(log, secret())).toEqual([]);
  });
});
