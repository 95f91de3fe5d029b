// Health checks for load balancers and orchestrators: liveness without the database,
// readiness with it. Instances of their own, on a copy of the e2e database or on none.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/request';
import type { Connection } from '@/db';
import { expectProblem } from '../support/api';
import { copyDatabase, killInstance, mainDatabaseUrl, rawClient, startInstance, type Instance } from '../support/instances';

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test('on the shared server: /healthz and /readyz answer 200 without a credential, never cached, outside the API', async ({ request }) => {
  const live = await request.get('/healthz');
  expect(live.status()).toBe(200);
  expect(await live.json()).toEqual({ status: 'ok' });
  expect(live.headers()['cache-control']).toBe('no-store');
  const ready = await request.get('/readyz');
  expect(ready.status(), await ready.text()).toBe(200);
  expect(await ready.json()).toEqual({ status: 'ready', migrations: 'current' });
  expect(ready.headers()['cache-control']).toBe('no-store');
  // Not rate-limited: far more checks than a shopper's budget of pages would allow in a burst.
  const statuses = await Promise.all(Array.from({ length: 50 }, () => request.get('/readyz').then((r) => r.status())));
  expect(new Set(statuses)).toEqual(new Set([200]));
  const openapi = JSON.stringify(await (await request.get('/site/v1/openapi.json')).json());
  expect(openapi).not.toMatch(/healthz|readyz/);
});

test.describe('readiness follows the database', () => {
  let instance: Instance;
  let database: Connection;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const copy = await copyDatabase(mainDatabaseUrl(), join(mkdtempSync(join(tmpdir(), 'sd-health-e2e-')), 'site.db'));
    instance = await startInstance(copy);
    database = rawClient(copy);
  });

  test.afterAll(async () => {
    database?.close();
    if (instance) await killInstance(instance);
  });

  const readyz = () => fetch(`${instance.baseURL}/readyz`);

  test("behind this build's migrations: 503 problem+json with Retry-After; current again: 200; a newer release's ahead: 200", async ({
    request,
  }) => {
    expect((await readyz()).status).toBe(200);
    const newest = Number((await database.execute('SELECT max(created_at) AS n FROM __drizzle_migrations')).rows[0]!.n);
    const row = (await database.execute({ sql: 'SELECT * FROM __drizzle_migrations WHERE created_at = ?', args: [newest] })).rows[0]!;
    await database.execute({ sql: 'DELETE FROM __drizzle_migrations WHERE created_at = ?', args: [newest] });

    const behind = await request.get(`${instance.baseURL}/readyz`, { failOnStatusCode: false });
    const problem = await expectProblem(behind, 503, 'service_unavailable');
    expect(problem.detail).toContain('npm run db:migrate');
    expect(behind.headers()['retry-after']).toBe('5');
    expect(behind.headers()['cache-control']).toBe('no-store');
    // Liveness does not follow the database.
    expect((await fetch(`${instance.baseURL}/healthz`)).status).toBe(200);

    await database.execute({ sql: 'INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)', args: [row.hash!, newest] });
    expect((await readyz()).status).toBe(200);
    await database.execute({
      sql: 'INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)',
      args: ['a-newer-release', newest + 1],
    });
    const ahead = await readyz();
    expect(ahead.status).toBe(200);
    expect(await ahead.json()).toEqual({ status: 'ready', migrations: 'ahead' });
  });
});

test('a database that cannot be reached: /readyz 503 at once, /healthz still 200', async ({ request }) => {
  // A libSQL server URL where nothing listens: every query is refused.
  const instance = await startInstance('http://127.0.0.1:9', { PAGE_RENDER_AHEAD: 'off', OUTBOX_DRAIN: 'off' }, 60_000);
  try {
    const ready = await request.get(`${instance.baseURL}/readyz`, { failOnStatusCode: false });
    await expectProblem(ready, 503, 'service_unavailable');
    const live = await request.get(`${instance.baseURL}/healthz`);
    expect(live.status()).toBe(200);
  } finally {
    await killInstance(instance);
  }
});
