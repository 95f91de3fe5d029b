import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/request';
import { rawClient } from '../support/instances';

// Kept product pages over a network: an instance reads the page with the storefront's
// credential (and so the Site's catalog version) in one request, so what another instance
// kept is served by this one, and a change committed behind both instances' backs shows at
// the very next view, on either.

const ports = JSON.parse(process.env.E2E_REMOTE_PORTS!) as { a: number; b: number; database: number };
const [A, B] = [`http://127.0.0.1:${ports.a}`, `http://127.0.0.1:${ports.b}`];
// A product no other spec of the remote run reads or changes.
const HANDLE = 'canvas-apron';
const COOKIE = 'market=se; locale=en-SE';

async function view(request: APIRequestContext, base: string) {
  // Both instances behind one public origin, as behind a load balancer: pages are kept per origin.
  const headers = { Cookie: COOKIE, 'X-Forwarded-Host': `127.0.0.1:${ports.a}` };
  const res = await request.get(`${base}/products/${HANDLE}`, { headers, failOnStatusCode: false });
  expect(res.status()).toBe(200);
  return { source: res.headers()['x-page-source'], title: /<h1>(.*?)<\/h1>/.exec(await res.text())?.[1] };
}

test('a page kept by one instance is served by the other, and a change shows at the next view', async ({ request }) => {
  // Kept in the database just after the render's answer: wait for it, however busy the host.
  await expect.poll(async () => (await view(request, A)).source, { timeout: 30_000 }).toBe('stored');
  expect(await view(request, B)).toEqual({ source: 'stored', title: 'Canvas Apron' });

  const database = rawClient(`http://127.0.0.1:${ports.database}`);
  const rename = (title: string) =>
    database.execute({
      sql: "UPDATE product_translations SET title = ? WHERE locale = 'en-SE' AND product_id = (SELECT id FROM products WHERE handle = ?)",
      args: [title, HANDLE],
    });
  try {
    await rename('Canvas Apron (renamed)');
    // The first view after the change renders the new page; the other instance then serves it as kept.
    expect(await view(request, B)).toMatchObject({ source: undefined, title: 'Canvas Apron (renamed)' });
    await expect.poll(() => view(request, A), { timeout: 30_000 }).toEqual({ source: 'stored', title: 'Canvas Apron (renamed)' });
  } finally {
    await rename('Canvas Apron');
    database.close();
  }
});
