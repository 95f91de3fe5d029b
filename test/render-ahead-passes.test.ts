// A render-ahead pass that ends before the catalog is rendered (its time budget, a stop) says
// so in the log: on a slow host the first pass after a start outlasts its 5 minutes, and an
// operator (or the bench) reading only finished passes would take the last one for the whole.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeDatabase, openDatabase } from '@/db';
import { migrateDatabase } from '@/db/migrate';
import { seedDatabase } from '@/db/seed';
import { createCredential } from '@/lib/platform/auth/credentials';
import { logger } from '@/lib/platform/observability/logger';
import type { PassContext } from '@/lib/jobs/types';

vi.mock('server-only', () => ({}));

const dir = mkdtempSync(join(tmpdir(), 'sd-render-ahead-'));
const url = `file:${join(dir, 'site.db')}`;
// Nothing listens here: a pass that tried to render a page would fail, and the test with it.
const frontDoor = 'http://127.0.0.1:9';
const log = vi.spyOn(logger(), 'info').mockImplementation((() => undefined) as never);
let runner: { pass: (context: PassContext) => Promise<Record<string, unknown>> };

beforeAll(async () => {
  const database = openDatabase({ url });
  await migrateDatabase(database);
  await seedDatabase(database);
  const token = (await createCredential(database, { siteHandle: 'demo', scope: 'core' })).token;
  closeDatabase(database);
  // lib/env reads the environment once, on first use: set it before the module runs.
  Object.assign(process.env, { DATABASE_URL: url, SITE_API_CREDENTIAL: token, STOREFRONT_ORIGIN: frontDoor, JOBS: 'cron' });
  delete process.env.SITE_API_BASE_URL;
  delete process.env.PAGE_STORE;
  delete process.env.PAGE_RENDER_AHEAD;
  runner = (await import('@/lib/storefront/render-ahead')).renderAheadRunner();
});

afterAll(async () => {
  log.mockRestore();
  closeDatabase((await import('@/lib/db')).db());
  rmSync(dir, { recursive: true, force: true });
});

const lines = () => log.mock.calls.map((call) => String(call[1]));

describe('render-ahead passes', () => {
  it('a pass out of time before its first page: not finished, said with its count and the reason', async () => {
    log.mockClear();
    const summary = await runner.pass({ deadline: Date.now() - 1, stopped: () => false, frontDoor });
    expect(summary).toEqual({ rendered: 0, finished: 'no' });
    expect(lines()).toEqual([
      expect.stringMatching(
        /^\[storefront\] product pages ahead of shoppers, pass not finished \(out of time\): 0 rendered in \d+\.\d s; the next pass goes on$/,
      ),
    ]);
  });

  it('a stopped pass (the server shutting down) says it was stopped', async () => {
    log.mockClear();
    const summary = await runner.pass({ deadline: Date.now() + 60_000, stopped: () => true, frontDoor });
    expect(summary).toEqual({ rendered: 0, finished: 'no' });
    expect(lines()).toEqual([expect.stringContaining('pass not finished (stopped): 0 rendered in')]);
    // Not the line of a finished pass, which the bench and operators read as "the catalog is rendered".
    expect(lines()[0]).not.toMatch(/ahead of shoppers: \d+ rendered/);
  });
});
