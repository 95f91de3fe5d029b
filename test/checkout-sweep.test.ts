import { eq, inArray } from 'drizzle-orm';
import LibsqlDatabase from 'libsql';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { closeDatabase, execute, type Database } from '@/db';
import { checkoutSessionLines, checkoutSessions } from '@/db/schema';
import { authenticateCredential, createCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import { createCheckoutSession, getCheckoutSession } from '@/lib/commerce/checkout';
import { KEEP_AFTER_EXPIRY_MS, maybeSweepExpiredCheckoutSessions, sweepExpiredCheckoutSessions } from '@/lib/commerce/checkout/sweep';
import { firstVariantOf, freshDatabase } from './support/database';
import { logger } from '@/lib/platform/observability/logger';

const TTL = 3600;
const HOUR = 3600_000;
let database: Database;
let demo: SiteContext;
let mug: string;

beforeAll(async () => {
  ({ database } = await freshDatabase({ seed: { checkoutBaseUrl: 'https://shop.example/checkout' } }));
  demo = (await authenticateCredential(database, (await createCredential(database, { siteHandle: 'demo', scope: 'extended' })).token))!;
  mug = await firstVariantOf(database, 'demo');
});

const create = (now: number) =>
  createCheckoutSession(database, demo, { lines: [{ variantId: mug, quantity: 1 }] }, { ttlSeconds: TTL, now });

async function existing(ids: string[]): Promise<string[]> {
  const rows = await database.select({ id: checkoutSessions.id }).from(checkoutSessions).where(inArray(checkoutSessions.id, ids));
  return rows.map((r) => r.id).sort();
}

describe('sweepExpiredCheckoutSessions', () => {
  it('deletes sessions that expired more than a day ago without a payment, with their lines, and keeps the rest', async () => {
    const now = Date.parse('2026-11-24T12:00:00.000Z');
    const longAgo = now - KEEP_AFTER_EXPIRY_MS - TTL * 1000 - HOUR; // expired 25 h ago
    const abandonedOpen = await create(longAgo); // still 'open' in the table: expiry is lazy
    const abandonedExpired = await create(longAgo);
    await database.update(checkoutSessions).set({ status: 'expired' }).where(eq(checkoutSessions.id, abandonedExpired.id));
    const order = await create(longAgo);
    await database.update(checkoutSessions).set({ status: 'completed' }).where(eq(checkoutSessions.id, order.id));
    const paid = await create(longAgo);
    const payment = { provider: 'sandbox', reference: 'ref_1', clientToken: 't', amount: 1, expiresAt: longAgo };
    await database.update(checkoutSessions).set({ status: 'expired', payment }).where(eq(checkoutSessions.id, paid.id));
    const recentlyExpired = await create(now - TTL * 1000 - HOUR); // expired an hour ago: kept for late readers and replays
    const live = await create(now - 60_000);
    const all = [abandonedOpen, abandonedExpired, order, paid, recentlyExpired, live].map((s) => s.id);

    expect(await sweepExpiredCheckoutSessions(database, { now })).toBe(2);
    expect(await existing(all)).toEqual([order.id, paid.id, recentlyExpired.id, live.id].sort());
    const orphanLines = await database
      .select()
      .from(checkoutSessionLines)
      .where(inArray(checkoutSessionLines.sessionId, [abandonedOpen.id, abandonedExpired.id]));
    expect(orphanLines).toEqual([]);
    // What is kept still reads as before: the recently expired one as expired.
    expect((await getCheckoutSession(database, demo.site, recentlyExpired.id, { now })).status).toBe('expired');
    expect(await sweepExpiredCheckoutSessions(database, { now })).toBe(0);
  });

  it('deletes at most one batch per sweep', async () => {
    const now = Date.parse('2026-11-26T12:00:00.000Z');
    const longAgo = now - KEEP_AFTER_EXPIRY_MS - TTL * 1000 - HOUR;
    while ((await sweepExpiredCheckoutSessions(database, { now })) > 0); // what the test above left
    for (let i = 0; i < 5; i++) await create(longAgo);
    expect(await sweepExpiredCheckoutSessions(database, { now, batch: 3 })).toBe(3);
    expect(await sweepExpiredCheckoutSessions(database, { now, batch: 3 })).toBe(2);
  });
});

describe('maybeSweepExpiredCheckoutSessions (what a creation does)', () => {
  it('now and then schedules a sweep for after the answer, and logs one that fails instead of throwing', async () => {
    const tasks: (() => Promise<void>)[] = [];
    maybeSweepExpiredCheckoutSessions(
      database,
      (task) => tasks.push(task),
      () => 0.5,
    );
    expect(tasks).toHaveLength(0);
    const longAgo = Date.now() - KEEP_AFTER_EXPIRY_MS - TTL * 1000 - HOUR;
    const abandoned = await create(longAgo);
    maybeSweepExpiredCheckoutSessions(
      database,
      (task) => tasks.push(task),
      () => 0,
    );
    expect(tasks).toHaveLength(1);
    await tasks[0]!();
    expect(await existing([abandoned.id])).toEqual([]);

    const broken = {
      select: () => {
        throw new Error('database is locked');
      },
    } as unknown as typeof database;
    const warn = vi.spyOn(logger(), 'warn').mockImplementation(() => {});
    try {
      maybeSweepExpiredCheckoutSessions(
        broken,
        (task) => tasks.push(task),
        () => 0,
      );
      await expect(tasks[1]!()).resolves.toBeUndefined();
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('sweeping expired sessions failed: database is locked'));
    } finally {
      warn.mockRestore();
    }
  });
});

describe('the sweep on a large table', () => {
  it('finds its candidates through its own index, not by reading every session', async () => {
    // Connections bind prepare() when they open: watch it before the database is opened.
    let statements: string[] = [];
    const proto = LibsqlDatabase.prototype as unknown as { prepare: (sql: string) => unknown };
    const prepare = proto.prepare;
    proto.prepare = function (this: unknown, sql: string) {
      statements.push(sql);
      return prepare.call(this, sql);
    };
    let fresh: Database;
    try {
      ({ database: fresh } = await freshDatabase());
      statements = [];
      await sweepExpiredCheckoutSessions(fresh, { now: Date.now() });
    } finally {
      proto.prepare = prepare;
    }
    const reads = statements.filter((s) => /^select\b/i.test(s) && s.includes('checkout_sessions'));
    expect(reads).toHaveLength(1);
    const plan = (await execute(fresh, `EXPLAIN QUERY PLAN ${reads[0]}`)).rows.map((r) => String(r.detail)).join('\n');
    expect(plan).toMatch(/SEARCH checkout_sessions USING INDEX checkout_sessions_sweep_idx \(expires_at<\?\)/);
    expect(plan).not.toMatch(/SCAN checkout_sessions/);
    closeDatabase(fresh);
  });
});
