// `npm run db:backup` on a live shop: checkout sessions are created through an instance's
// API the whole time, the backup runs as an operator runs it, and a shop started on the copy
// serves every session acknowledged before the backup began.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '../support/request';
import { creds, V1 } from '../support/api';
import { copyDatabase, killInstance, mainDatabaseUrl, rawClient, startInstance, type Instance } from '../support/instances';
import { variantIds } from '../support/signups';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

const run = promisify(execFile);
const backup = (databaseUrl: string, target: string) =>
  run(process.execPath, ['node_modules/.bin/tsx', '--conditions=react-server', 'scripts/db-backup.ts', target], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
  }).then(
    (done) => ({ code: 0, out: done.stdout + done.stderr }),
    (failed: { code?: number; stdout?: string; stderr?: string }) => ({
      code: failed.code ?? -1,
      out: `${failed.stdout ?? ''}${failed.stderr ?? ''}`,
    }),
  );

let live: Instance;
let restored: Instance | undefined;
let scratch: string;

test.beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'sd-backup-e2e-'));
  live = await startInstance(await copyDatabase(mainDatabaseUrl(), join(scratch, 'live.db')), { PAGE_RENDER_AHEAD: 'off' });
});

test.afterAll(async () => {
  await Promise.all([live, restored].flatMap((i) => (i ? [killInstance(i)] : [])));
});

test('a backup taken under write load is whole and holds every write acknowledged before it began; a shop restored from it serves them', async ({
  request,
}) => {
  const [variantId] = await variantIds(request, 'fjord-ceramic-mug');
  const acknowledged: string[] = [];
  let writing = true;
  const writer = (async () => {
    for (let i = 0; writing; i++) {
      const res = await request.post(`${live.baseURL}${V1}/commerce/checkout-sessions`, {
        headers: {
          Authorization: `Bearer ${creds().core}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': `backup-${Date.now()}-${i}`,
        },
        data: JSON.stringify({ lines: [{ variantId, quantity: 1 + (i % 3) }] }),
      });
      expect(res.status(), await res.text()).toBe(201);
      acknowledged.push(((await res.json()) as { id: string }).id);
    }
  })();
  await expect.poll(() => acknowledged.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(20);

  const before = [...acknowledged];
  const target = join(scratch, 'backup.db');
  const result = await backup(live.databaseUrl, target);
  const during = acknowledged.length - before.length;
  writing = false;
  await writer;
  expect(result.code, result.out).toBe(0);
  expect(result.out).toMatch(/integrity ok/);
  // The writes went on while the backup ran (it holds no lock they wait for).
  expect(during).toBeGreaterThan(0);

  const copy = rawClient(`file:${target}`);
  try {
    expect((await copy.execute('PRAGMA integrity_check')).rows[0]![0]).toBe('ok');
    const placeholders = before.map(() => '?').join(',');
    const found = await copy.execute({ sql: `SELECT id FROM checkout_sessions WHERE id IN (${placeholders})`, args: before });
    expect(found.rows.map((r) => String(r.id)).sort()).toEqual([...before].sort());
  } finally {
    copy.close();
  }

  restored = await startInstance(`file:${target}`, { PAGE_RENDER_AHEAD: 'off', SITE_API_CREDENTIAL: creds().storefront });
  for (const id of [before[0]!, before.at(-1)!]) {
    const res = await request.get(`${restored.baseURL}${V1}/commerce/checkout-sessions/${id}`, {
      headers: { Authorization: `Bearer ${creds().extended}` },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  const page = await request.get(`${restored.baseURL}/products/fjord-ceramic-mug`);
  expect(page.status()).toBe(200);
});

test('a backup never overwrites a file, and refuses a remote database', async () => {
  const existing = join(scratch, 'taken.db');
  writeFileSync(existing, 'keep me');
  const overwrite = await backup(live.databaseUrl, existing);
  expect(overwrite.code).toBe(2);
  expect(overwrite.out).toContain('never overwrites');
  const remote = await backup('libsql://shop.example.turso.io', join(scratch, 'remote.db'));
  expect(remote.code).toBe(2);
  expect(remote.out).toContain('point-in-time restore');
});
