import { ProductPage } from '@/lib/contract/catalog';
import { creds, get } from '../support/api';
import { startOwnServer, type OwnServer } from './own-server';
import { expect, test } from './helpers';

// Shop pages pass a gate (lib/server/render-gate.ts): PAGE_RENDERS at once, a line of
// PAGE_RENDER_LINE, and 503 + Retry-After past it, so a burst of uncached pages costs the
// shoppers some waiting and never the process. Each server here renders every view
// (PAGE_CACHE_MB=0) on the e2e database.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

async function handles(request: Parameters<typeof get>[0], count: number): Promise<string[]> {
  const res = await get(request, `/commerce/products?limit=${count}`);
  expect(res.status()).toBe(200);
  return ProductPage.parse(await res.json()).data.map((p) => p.handle);
}

/** Every page at once, with no connection reuse: each is a request of its own on arrival. */
async function burst(server: OwnServer, paths: string[]) {
  return Promise.all(
    paths.map(async (path) => {
      const res = await fetch(`${server.url}${path}`, { headers: { Connection: 'close' } });
      return {
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        cache: res.headers.get('cache-control'),
        html: await res.text(),
      };
    }),
  );
}

test('past the bound and a full line, a page is 503 with Retry-After at once; the API and the next pages go on', async ({ request }) => {
  const server = await startOwnServer({
    SITE_API_CREDENTIAL: creds().storefront,
    PAGE_CACHE_MB: '0',
    PAGE_RENDERS: '1',
    PAGE_RENDER_LINE: '0',
  });
  try {
    const list = await handles(request, 24);
    // 24 at once against one render and no line: some must be refused. On a machine slow to
    // send them, a burst may trickle in one by one; it is sent again until one is refused.
    let answers: Awaited<ReturnType<typeof burst>> = [];
    for (let round = 0; round < 5 && !answers.some((a) => a.status === 503); round += 1) {
      answers = await burst(
        server,
        list.map((h) => `/products/${h}`),
      );
      expect(answers.every((a) => a.status === 200 || a.status === 503)).toBe(true);
    }
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.some((a) => a.status === 200)).toBe(true);
    for (const a of refused) {
      expect(a.retryAfter).toBe('2');
      expect(a.cache).toBe('no-store');
      expect(a.html).toContain('The shop is busy');
    }
    // The API is never held by the gate (the pages' own reads of it go through it).
    const api = await fetch(`${server.url}/site/v1/site`, { headers: { Authorization: `Bearer ${creds().core}` } });
    expect(api.status).toBe(200);
    // The process is whole: one page at a time is served as before (once the burst's last
    // render has given its slot back, which may come just after its answer was read).
    for (const h of list.slice(0, 3)) await expect.poll(async () => (await fetch(`${server.url}/products/${h}`)).status).toBe(200);
    expect(server.output()).not.toMatch(/heap out of memory|unhandled/i);
  } finally {
    await server.stop();
  }
});

test('with the default line, the same burst waits its turn and every page is served', async ({ request }) => {
  const server = await startOwnServer({ SITE_API_CREDENTIAL: creds().storefront, PAGE_CACHE_MB: '0', PAGE_RENDERS: '1' });
  try {
    const list = await handles(request, 24);
    const answers = await burst(
      server,
      list.map((h) => `/products/${h}`),
    );
    expect(answers.map((a) => a.status)).toEqual(list.map(() => 200));
    for (const [i, a] of answers.entries()) expect(a.html).toContain(`/products/${list[i]}`);
  } finally {
    await server.stop();
  }
});

test('a setting that is not a number stops the server with a message that names it', async () => {
  await expect(startOwnServer({ SITE_API_CREDENTIAL: creds().storefront, PAGE_RENDERS: 'many' })).rejects.toThrow(/PAGE_RENDERS/);
});
