import { expect, test as base } from '@playwright/test';

/**
 * `test` with a `request` fixture that sends every call on a connection of its own.
 *
 * Playwright's API client keeps connections alive and reuses an idle one without heeding the
 * server's `Keep-Alive: timeout=5` hint (Node's default, which `next start` keeps): a call
 * sent on a connection the server is closing at that moment fails with `read ECONNRESET`, in
 * any test that waits about that long between two calls. Browsers and Node's `fetch` heed the
 * hint; only this test client does not, so only it gets `Connection: close`.
 */
export const test = base.extend({
  request: async ({ playwright, baseURL, extraHTTPHeaders }, provide) => {
    const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { ...extraHTTPHeaders, connection: 'close' } });
    await provide(request);
    await request.dispose();
  },
});

export { expect };
