import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, APIResponse } from '@playwright/test';
import { V1, auth, creds } from '../support/api';
import { BASE_URL, expect, openProduct, test, useLocale } from './helpers';
import { startOwnServer } from './own-server';

// The headers every answer carries, the two page policies (a fresh nonce for pages rendered
// on request, the hashes of its own inline scripts for a cached product page), the API's
// policy, HSTS over HTTPS only, and a product page that refuses to be framed. Every browser
// test here (and in every storefront spec) also fails on any CSP violation (helpers.ts).

const PRODUCT = '/products/fjord-ceramic-mug';
const COOKIE = { Cookie: 'market=se; locale=en-SE' };

function expectBaseHeaders(res: APIResponse) {
  const h = res.headers();
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(h['permissions-policy']).toContain('camera=()');
  expect(h['x-frame-options']).toBe('DENY');
  // Plain HTTP here: HSTS would mean nothing (and is only sent over HTTPS).
  expect(h['strict-transport-security']).toBeUndefined();
}

/** A policy's directives by name (a single header; Playwright joins repeated ones with ", "). */
function directives(policy: string | undefined): Map<string, string[]> {
  expect(policy, 'a Content-Security-Policy header').toBeTruthy();
  expect(policy).not.toContain(', ');
  return new Map(
    policy!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );
}

/** The page policy shared by both kinds of page. */
function expectPagePolicy(policy: Map<string, string[]>) {
  expect(policy.get('default-src')).toEqual(["'self'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'none'"]);
  for (const name of ['script-src', 'style-src']) {
    expect(policy.get(name), name).not.toContain("'unsafe-inline'");
    expect(policy.get(name), name).not.toContain("'unsafe-eval'");
  }
}

/** The executable inline scripts of a document (not JSON-LD, not files), as the browser hashes them. */
function inlineScriptHashes(html: string): Set<string> {
  const hashes = new Set<string>();
  for (const [, attributes, text] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (/\bsrc=/.test(attributes!) || /type="application\/ld\+json"/.test(attributes!)) continue;
    hashes.add(`'sha256-${createHash('sha256').update(text!).digest('base64')}'`);
  }
  return hashes;
}

/** The product page as kept: from the database, or a HIT of Next's page cache. */
async function cachedProduct(request: APIRequestContext, headers: Record<string, string> = {}): Promise<APIResponse> {
  // Other specs change the shared catalog meanwhile; each change is a new key, first a MISS.
  for (let attempt = 0; ; attempt += 1) {
    const res = await request.get(PRODUCT, { headers: { ...COOKIE, ...headers } });
    const kept = res.headers()['x-page-source'] === 'stored' || res.headers()['x-nextjs-cache'] === 'HIT';
    if (kept || attempt === 4) {
      expect(kept, 'served as kept').toBe(true);
      return res;
    }
  }
}

test.describe('security headers', () => {
  test('a page rendered on request has a fresh nonce on every script it runs', async ({ request }) => {
    const nonces: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const res = await request.get('/cart', { headers: COOKIE });
      expect(res.status()).toBe(200);
      expectBaseHeaders(res);
      const policy = directives(res.headers()['content-security-policy']);
      expectPagePolicy(policy);
      const nonce = /^'nonce-([A-Za-z0-9+/=]{16,})'$/.exec(policy.get('script-src')!.find((s) => s.startsWith("'nonce-")) ?? '')?.[1];
      expect(nonce, 'a nonce in script-src').toBeTruthy();
      expect(policy.get('script-src')).toEqual(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"]);
      const html = await res.text();
      const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!).filter((a) => !a.includes('application/ld+json'));
      expect(scripts.length).toBeGreaterThan(2);
      for (const attributes of scripts) expect(attributes).toContain(`nonce="${nonce}"`);
      nonces.push(nonce!);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  test('a cached product page allows exactly its own inline scripts, by hash, and holds no nonce', async ({ request }) => {
    const first = await cachedProduct(request);
    const again = await cachedProduct(request);
    for (const res of [first, again]) {
      expectBaseHeaders(res);
      expect(res.headers()['cache-control']).toContain('no-store');
    }
    const html = await first.text();
    expect(await again.text()).toBe(html);
    const policy = directives(first.headers()['content-security-policy']);
    expectPagePolicy(policy);
    expect(again.headers()['content-security-policy']).toBe(first.headers()['content-security-policy']);
    const sources = policy.get('script-src')!;
    expect(sources[0]).toBe("'self'");
    expect(new Set(sources.slice(1))).toEqual(inlineScriptHashes(html));
    expect(sources.length).toBeGreaterThan(3);
    expect(policy.get('style-src')).toEqual(["'self'"]);
    expect(html).not.toContain('nonce=');
    expect(html).not.toMatch(/\sstyle="/);
  });

  test('API answers, errors included, may load and be framed by nothing', async ({ request }) => {
    const answers = [
      await request.get(`${V1}/site`, { headers: auth(creds().core) }),
      await request.get(`${V1}/site`),
      await request.get(`${V1}/no/such/resource`, { headers: auth(creds().core) }),
      await request.get(`${V1}/commerce/products/%E0%A4%A`, { headers: auth(creds().core) }),
      await request.get(`${V1}/openapi.json`),
      // The storefront's own JSON endpoint is no document either.
      await request.get('/shop-api/cart-count'),
    ];
    expect(answers.map((r) => r.status())).toEqual([200, 401, 404, 404, 200, 200]);
    for (const res of answers) {
      expectBaseHeaders(res);
      expect(res.headers()['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    }
  });

  test('a 404 page and the API reference carry their policies too', async ({ request }) => {
    const missing = await request.get('/no-such-page');
    expect(missing.status()).toBe(404);
    expectBaseHeaders(missing);
    const policy = directives(missing.headers()['content-security-policy']);
    expectPagePolicy(policy);
    expect(policy.get('script-src')).toContain("'strict-dynamic'");

    const docs = await request.get('/docs');
    expectBaseHeaders(docs);
    const docsPolicy = directives(docs.headers()['content-security-policy']);
    expect(docsPolicy.get('default-src')).toEqual(["'none'"]);
    expect(docsPolicy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(docsPolicy.get('script-src')).not.toContain("'unsafe-inline'");
  });

  test('HSTS is sent when the request came over HTTPS, and only then', async ({ request }) => {
    const https = { 'X-Forwarded-Proto': 'https' };
    const answers = [
      await request.get('/', { headers: https }),
      await cachedProduct(request, https),
      await request.get(`${V1}/site`, { headers: auth(creds().core, https) }),
      await request.get('/no-such-page', { headers: https }),
    ];
    for (const res of answers) expect(res.headers()['strict-transport-security'], res.url()).toBe('max-age=63072000');
    const plain = await request.get('/', { headers: { 'X-Forwarded-Proto': 'http' } });
    expect(plain.headers()['strict-transport-security']).toBeUndefined();
  });

  test('with an https public origin configured, pages get HSTS without X-Forwarded-Proto', async ({ request }) => {
    const server = await startOwnServer({ SITE_API_CREDENTIAL: creds().storefront, STOREFRONT_ORIGIN: 'https://shop.example.test' });
    try {
      for (const path of ['/cart', PRODUCT, '/no-such-page']) {
        const res = await request.get(`${server.url}${path}`, { headers: COOKIE });
        expect(res.headers()['strict-transport-security'], path).toBe('max-age=63072000');
      }
    } finally {
      await server.stop();
    }
  });

  test('pages run in the browser without a single violation', async ({ page, context }) => {
    await useLocale(context);
    // The browser also says when a header names something it does not know (a Permissions-Policy feature).
    const headerComplaints: string[] = [];
    page.on('console', (m) => {
      if (/Permissions-Policy|Content-Security-Policy header|Unrecognized feature/i.test(m.text())) headerComplaints.push(m.text());
    });
    // A cached product page, hydrated: its variant picker works in place.
    await openProduct(page, PRODUCT);
    await page.getByRole('radio', { name: 'Sand' }).check();
    await expect(page).toHaveURL(/variant=/);
    // Pages rendered on request, a 404 and the API reference (Swagger UI renders in the browser).
    await page.goto('/');
    await expect(page.getByRole('link', { name: /cart/i }).first()).toBeVisible();
    await page.goto('/cart');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const missing = await page.goto('/no-such-page');
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    // The 404 has the shop's header: its brand link leads home.
    await page.locator('.site-header .brand').click();
    await expect(page).toHaveURL(`${BASE_URL}/`);
    await page.goto('/docs');
    await expect(page.getByRole('heading', { name: /Site Delivery API/ })).toBeVisible();
    expect(headerComplaints).toEqual([]);
  });

  test('another site cannot show a product page in a frame', async ({ page, cspViolations }) => {
    // Another origin (its own port) whose page frames the product page.
    const foreign = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>Foreign</title><iframe title="shop" src="${BASE_URL}${PRODUCT}"></iframe>`);
    });
    await new Promise<void>((ok) => foreign.listen(0, '127.0.0.1', ok));
    try {
      const { port } = foreign.address() as AddressInfo;
      const refused = page.waitForEvent('console', (m) => m.text().includes("frame-ancestors 'none'"));
      const framed = page.waitForResponse(`${BASE_URL}${PRODUCT}`);
      await page.goto(`http://127.0.0.1:${port}/`);
      // The shop answered the frame's request; the browser then refused to show it.
      expect((await framed).status()).toBe(200);
      await refused;
      await expect(page.frameLocator('iframe').getByRole('heading', { name: 'Fjord Ceramic Mug' })).toHaveCount(0);
    } finally {
      await new Promise((done) => foreign.close(done));
    }
    // Provoked on purpose: the refusal is the one violation this test expects.
    expect(cspViolations).toEqual([expect.stringContaining("frame-ancestors 'none'")]);
    cspViolations.length = 0;
  });

  test('the violation guard also watches pages in contexts a test makes itself', async ({ browser, cspViolations }) => {
    const page = await browser.newPage();
    try {
      await page.goto(`${BASE_URL}/cart`);
      // A plain-HTTP image from elsewhere: img-src allows the shop's origin and HTTPS hosts only.
      const blocked = page.waitForEvent('console', (m) => m.text().includes('img-src'));
      await page.evaluate(() => {
        const img = document.createElement('img');
        img.src = 'http://127.0.0.2:9/pixel.gif';
        document.body.append(img);
      });
      await blocked;
    } finally {
      await page.close();
    }
    expect(cspViolations).toEqual([expect.stringContaining("img-src 'self'")]);
    cspViolations.length = 0;
  });
});
