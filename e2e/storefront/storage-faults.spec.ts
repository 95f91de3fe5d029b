import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { creds } from '../support/api';
import { copyDatabase, type Instance, killInstance, mainDatabaseUrl, startInstance } from '../support/instances';
import { canMakeImmutable, checkpointedAndWrittenOut } from '../support/storage-faults';
import { expect, test, useLocale } from './helpers';

// The shop on a server whose database files turn read-only (chattr +i): pages still show
// (reads need no write), a signup says to try again instead of a crash page, and the
// server keeps running and takes signups again once the files are writable.
// Made in beforeAll: Playwright also loads this file in its main process, to list the tests.
let scratch = '';
let server: Instance | undefined;
let files: string[] = [];
test.beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'sd-storefront-faults-'));
});
test.afterEach(async ({}, testInfo) => {
  // What the server said, for a failure's report.
  if (server && testInfo.status !== testInfo.expectedStatus)
    await testInfo.attach('server output', { body: server.output(), contentType: 'text/plain' });
});
test.afterAll(async () => {
  if (files.length) spawnSync('chattr', ['-i', ...files]);
  if (server) await killInstance(server);
  rmSync(scratch, { recursive: true, force: true });
});

test('read-only database files: pages render, a signup asks to try again, and works once the files are writable', async ({ browser }) => {
  test.skip(!canMakeImmutable(scratch), 'making files immutable (chattr +i) needs root and a file system with the flag');
  test.setTimeout(120_000);
  const url = await copyDatabase(mainDatabaseUrl(), join(scratch, 'site.db'));
  // Nothing rendered ahead: its pages would be commits while the files turn read-only, and
  // a reader after such a commit notes its place in the -shm mapping, which the kernel then
  // answers with SIGBUS (see checkpointedAndWrittenOut).
  server = await startInstance(url, {
    SITE_API_CREDENTIAL: creds().storefront,
    DATABASE_BUSY_TIMEOUT_MS: '1000',
    PAGE_RENDER_AHEAD: 'off',
  });
  const context = await browser.newContext({ baseURL: server.baseURL });
  await useLocale(context);
  let page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('contentinfo')).toBeVisible();

  // No page open (its analytics beacons are writes) while the files are made unwritable.
  await page.close();
  files = await checkpointedAndWrittenOut(url);
  expect(spawnSync('chattr', ['+i', ...files]).status).toBe(0);
  page = await context.newPage();

  const subscribe = async (email: string) => {
    const footer = page.getByRole('contentinfo');
    await footer.getByLabel('E-mail address').fill(email);
    await footer.getByRole('checkbox', { name: 'Yes, send me the newsletter by e-mail. I can unsubscribe at any time.' }).check();
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    return footer;
  };

  await page.goto('/products/linen-tote-bag');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const footer = await subscribe(`readonly.${Date.now()}@example.com`);
  await expect(footer.getByText('Something went wrong on our side. Please try again in a moment.')).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('contentinfo')).toBeVisible();
  expect(server.child.exitCode).toBeNull();
  expect(server.child.signalCode).toBeNull();
  expect(server.output()).toContain('storage fault (readonly)');
  expect(await server.loggedOutput()).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);

  expect(spawnSync('chattr', ['-i', ...files]).status).toBe(0);
  const again = await subscribe(`readonly-after.${Date.now()}@example.com`);
  await expect(
    again.getByText('Almost done — we’re sending you an e-mail. Confirm your subscription with the link in it within 7 days.'),
  ).toBeVisible();
  await context.close();
});
