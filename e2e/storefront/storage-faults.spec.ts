import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from '@playwright/test';
import { creds } from '../support/api';
import { copyDatabase, killInstance, rawClient, startInstance, type Instance } from '../support/instances';
import { expect, useLocale } from './helpers';

// The shop on a server whose database files turn read-only (chattr +i): pages still show
// (reads need no write), a signup says to try again instead of a crash page, and the
// server keeps running and takes signups again once the files are writable.
const scratch = mkdtempSync(join(tmpdir(), 'sd-storefront-faults-'));
let server: Instance | undefined;
let files: string[] = [];
test.afterAll(async () => {
  if (files.length) spawnSync('chattr', ['-i', ...files]);
  if (server) await killInstance(server);
  rmSync(scratch, { recursive: true, force: true });
});

function canMakeImmutable(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = join(scratch, 'chattr-probe');
  writeFileSync(probe, '');
  const ok = spawnSync('chattr', ['+i', probe]).status === 0;
  spawnSync('chattr', ['-i', probe]);
  return ok;
}

test('read-only database files: pages render, a signup asks to try again, and works once the files are writable', async ({ browser }) => {
  test.skip(!canMakeImmutable(), 'making files immutable (chattr +i) needs root and a file system with the flag');
  test.setTimeout(120_000);
  const url = await copyDatabase(`file:${join(process.env.E2E_DATA_DIR!, 'site.db')}`, join(scratch, 'site.db'));
  const path = url.slice('file:'.length);
  server = await startInstance(url, { SITE_API_CREDENTIAL: creds().storefront, DATABASE_BUSY_TIMEOUT_MS: '1000' });
  const context = await browser.newContext({ baseURL: server.baseURL });
  await useLocale(context);
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('contentinfo')).toBeVisible();

  // Everything checkpointed and written out, then the files made unwritable.
  files = [path, `${path}-wal`, `${path}-shm`];
  const other = rawClient(url);
  try {
    await expect.poll(async () => {
      const [row] = (await other.execute('PRAGMA wal_checkpoint(PASSIVE)')).rows;
      return Number(row![1]) === Number(row![2]);
    }).toBe(true);
  } finally {
    other.close();
  }
  expect(spawnSync('sync', files).status).toBe(0);
  expect(spawnSync('chattr', ['+i', ...files]).status).toBe(0);

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
  expect(server.output()).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);

  expect(spawnSync('chattr', ['-i', ...files]).status).toBe(0);
  const again = await subscribe(`readonly-after.${Date.now()}@example.com`);
  await expect(again.getByText('Almost done — check your inbox to confirm your subscription.')).toBeVisible();
  await context.close();
});
