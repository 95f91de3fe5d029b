// The background jobs (lib/jobs) as `npm run job` and the cron route run them: one pass,
// against the app's own database client, with JOBS=cron so no timer runs beside them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrateDatabase } from '@/db/migrate';
import { seedDatabase } from '@/db/seed';
import { checkoutSessions, rateLimitCounters } from '@/db/schema';
import { authenticateCredential, createCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import { createCheckoutSession } from '@/lib/commerce/checkout';
import { KEEP_AFTER_EXPIRY_MS } from '@/lib/commerce/checkout/sweep';
import { consumeRateLimit } from '@/lib/platform/rate-limit/store';
import { db } from '@/lib/db';
import { JOBS, jobNamed, runJobOnce } from '@/lib/jobs';
import { startJobTimers } from '@/lib/jobs/timers';
import { renderAheadJob, rendersAheadOnTimer } from '@/lib/jobs/render-ahead';
import { firstVariantOf } from './support/database';
import { logger } from '@/lib/platform/observability/logger';
import { closeDatabase, rows, run } from '@/db';
import { STORED_BUILD } from '@/lib/platform/cache/stored-answers';

vi.mock('server-only', () => ({}));

const dir = mkdtempSync(join(tmpdir(), 'sd-jobs-'));
const url = `file:${join(dir, 'site.db')}`;
// Read once, on first use (lib/env.ts): set before anything asks.
Object.assign(process.env, { DATABASE_URL: url, JOBS: 'cron', RATE_LIMIT_WINDOW_SECONDS: '60' });
delete process.env.SITE_API_CREDENTIAL;

let demo: SiteContext;
let variant: string;
// Job lines go to the process's logger (one JSON line each on stdout): read them there.
const log = vi.spyOn(logger(), 'info').mockImplementation((() => undefined) as never);

beforeAll(async () => {
  await migrateDatabase(db());
  await seedDatabase(db());
  demo = (await authenticateCredential(db(), (await createCredential(db(), { siteHandle: 'demo', scope: 'core' })).token))!;
  variant = await firstVariantOf(db(), 'demo');
});

afterAll(() => {
  log.mockRestore();
  closeDatabase(db());
});

const once = (name: string, frontDoor: string | null = null) => runJobOnce(jobNamed(name)!, { deadline: Date.now() + 30_000, frontDoor });

describe('jobs', () => {
  it('are one list, each with a name a cron path can carry', () => {
    expect(JOBS.map((j) => j.name)).toEqual(['outbox', 'render-ahead', 'sweep']);
    for (const job of JOBS) expect(job.name).toMatch(/^[a-z][a-z-]*$/);
    expect(jobNamed('nothing')).toBeUndefined();
  });

  it('JOBS=cron: the server starts no timers, and says so', () => {
    expect(startJobTimers()).toBeNull();
    expect(log.mock.calls.map((c) => String(c[0]))).toContain('[jobs] JOBS=cron: no background timers; a cron calls /api/cron/<name>');
  });

  it('sweep: one pass deletes long-expired checkout sessions and past rate-limit windows, and keeps the rest', async () => {
    const now = Date.now();
    const longAgo = now - KEEP_AFTER_EXPIRY_MS - 2 * 3600_000;
    const create = (at: number) =>
      createCheckoutSession(db(), demo, { lines: [{ variantId: variant, quantity: 1 }] }, { ttlSeconds: 3600, now: at });
    const old = await Promise.all([create(longAgo), create(longAgo), create(longAgo)]);
    const live = await create(now);
    const policy = { name: 'reads', limit: 10, windowSeconds: 60 } as const;
    await consumeRateLimit(db(), { bucket: 'jobs-test:old', policy, now: now - 3600_000 });
    await consumeRateLimit(db(), { bucket: 'jobs-test:now', policy, now });
    // A stored answer of a build long gone, and one of this build (it stays: its product is unchanged).
    const answer = (handle: string, build: string) =>
      run(
        db(),
        `INSERT INTO stored_answers (site_id, origin, market, locale, handle, build, valid_at, scopes, etag, stored_at, body)
          VALUES (?, 'http://127.0.0.1:3000', 'se', 'en-SE', ?, ?, ?, ?, '"e"', ?, '{}')`,
        [demo.site.id, handle, build, demo.site.catalogVersion, `product:${handle}`, now - 86_400_000],
      );
    await answer('linen-tote-bag', 'a-build-long-gone');
    await answer('fjord-ceramic-mug', STORED_BUILD);

    const summary = await once('sweep');
    expect(summary).toMatchObject({ checkoutSessions: 3, rateLimitWindows: 1, storedAnswers: 1 });
    expect(await rows(db(), 'SELECT handle FROM stored_answers')).toMatchObject([{ handle: 'fjord-ceramic-mug' }]);
    const left = await db()
      .select({ id: checkoutSessions.id })
      .from(checkoutSessions)
      .where(
        inArray(
          checkoutSessions.id,
          [...old, live].map((s) => s.id),
        ),
      );
    expect(left.map((r) => r.id)).toEqual([live.id]);
    const buckets = await db()
      .select({ bucket: rateLimitCounters.bucket })
      .from(rateLimitCounters)
      .where(inArray(rateLimitCounters.bucket, ['jobs-test:old', 'jobs-test:now']));
    expect(buckets.map((b) => b.bucket)).toEqual(['jobs-test:now']);
    // Nothing left: the next pass deletes nothing.
    expect(await once('sweep')).toMatchObject({ checkoutSessions: 0, rateLimitWindows: 0, storedAnswers: 0 });
  });

  it('render-ahead: says why it did nothing where it cannot render (no storefront credential)', async () => {
    expect(await once('render-ahead', 'http://127.0.0.1:9')).toEqual({ skipped: 'no SITE_API_CREDENTIAL' });
  });

  it('render-ahead: on its timer in production only, unless PAGE_RENDER_AHEAD says otherwise (next dev renders nothing ahead)', () => {
    const production = { NODE_ENV: 'production', PAGE_STORE: 'on', PAGE_RENDER_AHEAD: undefined } as const;
    expect(rendersAheadOnTimer(production)).toBe(true);
    expect(rendersAheadOnTimer({ ...production, NODE_ENV: 'development' })).toBe(false);
    expect(rendersAheadOnTimer({ ...production, NODE_ENV: 'development', PAGE_RENDER_AHEAD: 'on' })).toBe(true);
    expect(rendersAheadOnTimer({ ...production, PAGE_RENDER_AHEAD: 'off' })).toBe(false);
    expect(rendersAheadOnTimer({ ...production, PAGE_RENDER_AHEAD: 'on', PAGE_STORE: 'off' })).toBe(false);
    // This process sets neither (NODE_ENV is vitest's 'test'): the job has no timer here.
    expect(renderAheadJob.everyMs()).toBeNull();
  });
});
