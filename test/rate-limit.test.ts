import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openConnection, openDatabase, writeBatchWith, type Database } from '@/db';
import { migrateDatabase } from '@/db/migrate';
import { rateLimitCounters } from '@/db/schema';
import { sql } from 'drizzle-orm';
import {
  consumeRateLimit,
  credentialBucket,
  leaseSizeFor,
  purgeRateLimitWindows,
  RateLimitLeases,
  shopperBucket,
  shopperKeyOf,
  windowStartOf,
  type RateLimitPolicy,
} from '@/lib/platform/rate-limit/store';
import { DomainError } from '@/lib/platform/errors';

// lib/http modules are server-only; under vitest there is no bundler to enforce that.
vi.mock('server-only', () => ({}));

const dir = mkdtempSync(join(tmpdir(), 'sd-'));
const url = 'file:' + join(dir, 'site.db');
let database: Database;

// lib/env reads these once, on first use (applyRateLimit below).
process.env.DATABASE_URL = url;
process.env.RATE_LIMIT_READS = '3';
process.env.RATE_LIMIT_WRITES = '5';
process.env.RATE_LIMIT_READS_PER_SHOPPER = '2';
process.env.RATE_LIMIT_WRITES_PER_SHOPPER = '2';
process.env.RATE_LIMIT_WINDOW_SECONDS = '60';
process.env.DATABASE_BUSY_TIMEOUT_MS = '200';

beforeAll(async () => {
  database = openDatabase({ url });
  await migrateDatabase(database);
});

const reads: RateLimitPolicy = { name: 'reads', limit: 3, windowSeconds: 60 };
const T0 = Date.parse('2026-11-21T12:00:00.000Z'); // a window boundary for 60 s windows

/** The latest time JavaScript's Date holds: a window that never ends, so no sweep removes a test's marker rows. */
const MARKER_WINDOW = 8.64e15;

describe('consumeRateLimit', () => {
  it('counts up to the budget, then refuses, and says how long until the window resets', async () => {
    const seen = [];
    for (let i = 0; i < 5; i++) seen.push(await consumeRateLimit(database, { bucket: 'c1:r', policy: reads, now: T0 + 18_000 }));
    expect(seen.map((s) => [s.allowed, s.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
      [false, 0],
    ]);
    expect(seen[0]!.resetSeconds).toBe(42);
  });

  it('starts afresh in the next window', async () => {
    expect(windowStartOf(T0 + 59_999, 60)).toBe(T0);
    expect(windowStartOf(T0 + 60_000, 60)).toBe(T0 + 60_000);
    const last = await consumeRateLimit(database, { bucket: 'c1:r', policy: reads, now: T0 + 59_999 });
    expect(last).toMatchObject({ allowed: false, resetSeconds: 1 });
    const next = await consumeRateLimit(database, { bucket: 'c1:r', policy: reads, now: T0 + 60_000 });
    expect(next).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 60 });
  });

  it('keeps buckets apart', async () => {
    await consumeRateLimit(database, { bucket: 'c2:r', policy: reads, now: T0 });
    const other = await consumeRateLimit(database, { bucket: 'c3:r', policy: reads, now: T0 });
    expect(other.remaining).toBe(2);
  });

  it('counts every one of many concurrent requests exactly once', async () => {
    const policy: RateLimitPolicy = { name: 'writes', limit: 1000, windowSeconds: 60 };
    const all = await Promise.all(Array.from({ length: 40 }, () => consumeRateLimit(database, { bucket: 'c4:w', policy, now: T0 })));
    expect(new Set(all.map((s) => s.remaining)).size).toBe(40);
    expect(Math.min(...all.map((s) => s.remaining))).toBe(960);
  });
});

describe('RateLimitLeases', () => {
  const counter = async (bucket: string) =>
    Number((await database.all<{ count: number }>(sql`SELECT count FROM rate_limit_counters WHERE bucket = ${bucket}`))[0]?.count ?? 0);

  it('counts a small budget one request at a time, exactly', async () => {
    expect(leaseSizeFor(3)).toBe(1);
    expect(leaseSizeFor(1999)).toBe(1);
    const leases = new RateLimitLeases();
    const seen = [];
    for (let i = 0; i < 5; i++) seen.push(await leases.take(database, { bucket: 'l1:r', policy: reads, now: T0 }));
    expect(seen.map((s) => [s.allowed, s.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
      [false, 0],
    ]);
    expect(await counter('l1:r')).toBe(3); // refusals past the budget write nothing
  });

  it('claims a large budget in leases: one write per lease, every request counted once', async () => {
    const policy: RateLimitPolicy = { name: 'reads', limit: 100_000, windowSeconds: 60 };
    expect(leaseSizeFor(policy.limit)).toBe(32);
    const leases = new RateLimitLeases();
    const all = await Promise.all(Array.from({ length: 100 }, () => leases.take(database, { bucket: 'l2:r', policy, now: T0 })));
    expect(all.every((s) => s.allowed)).toBe(true);
    expect(new Set(all.map((s) => s.remaining)).size).toBe(100);
    expect(Math.min(...all.map((s) => s.remaining))).toBe(100_000 - 100); // the unspent 28 still count as left
    expect(await counter('l2:r')).toBe(128); // four leases of 32
    // The rest of the last lease is answered at once, without the database.
    const next = leases.takeNow({ bucket: 'l2:r', policy, now: T0 });
    expect(next).toMatchObject({ allowed: true, remaining: 100_000 - 101 });
    expect(await counter('l2:r')).toBe(128);
    expect(leases.takeNow({ bucket: 'l2:r', policy, now: T0 + 60_000 })).toBeNull(); // a new window needs a claim
  });

  it('never lets instances together admit more than the budget', async () => {
    const policy: RateLimitPolicy = { name: 'writes', limit: 4000, windowSeconds: 60 }; // leases of 4
    const bucket = 'l3:w';
    await database.run(sql`INSERT INTO rate_limit_counters (bucket, window_start, count) VALUES (${bucket}, ${T0}, ${3990})`);
    const instances = [new RateLimitLeases(), new RateLimitLeases(), new RateLimitLeases()];
    let admitted = 0;
    for (let i = 0; i < 30; i++) {
      const state = await instances[i % 3]!.take(database, { bucket, policy, now: T0 + 1000 });
      if (state.allowed) admitted += 1;
      else expect(state.remaining).toBe(0);
    }
    expect(admitted).toBe(10);
    // The next window is a fresh budget for every instance.
    expect((await instances[0]!.take(database, { bucket, policy, now: T0 + 60_000 })).allowed).toBe(true);
  });
});

describe('rate limit buckets', () => {
  const common = { credentialId: 'cred_A', windowStart: T0, secret: 'k'.repeat(32) };

  it('charges every request to its credential, and a named shopper to a bucket of their own besides', () => {
    expect(credentialBucket('cred_A', 'read')).toBe('cred_A:r');
    expect(credentialBucket('cred_A', 'write')).toBe('cred_A:w');
    const a = shopperBucket({ ...common, kind: 'write', buyerIp: '203.0.113.9' });
    const b = shopperBucket({ ...common, kind: 'write', buyerIp: '198.51.100.7' });
    expect(a).not.toBe(b);
    expect(a).toBe(shopperBucket({ ...common, kind: 'write', buyerIp: '203.0.113.9' }));
    expect(a.startsWith('cred_A:w:')).toBe(true);
    expect(shopperBucket({ ...common, kind: 'read', buyerIp: '203.0.113.9' }).startsWith('cred_A:r:')).toBe(true);
  });

  it('never carries the address, and does not link a shopper across windows or keys', () => {
    const a = shopperBucket({ ...common, kind: 'write', buyerIp: '203.0.113.9' });
    expect(a).not.toContain('203.0.113.9');
    expect(a).not.toContain('203');
    expect(shopperBucket({ ...common, windowStart: T0 + 60_000, kind: 'write', buyerIp: '203.0.113.9' })).not.toBe(a);
    expect(shopperBucket({ ...common, secret: 'x'.repeat(32), kind: 'write', buyerIp: '203.0.113.9' })).not.toBe(a);
  });
});

describe('shopperKeyOf', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'], // IPv4-mapped: the same shopper as plain IPv4
    ['2001:db8:1:2::7', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:1:2:3', '2001:db8:1:2::/64'], // another address of the same /64
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('takes %j as shopper %j', (text, key) => {
    expect(shopperKeyOf(text)).toBe(key);
  });

  it.each([
    '',
    '1234',
    'abcd',
    '::::',
    '1.2.3',
    '01.2.3.4',
    '256.1.1.1',
    'ff',
    'dead:beef',
    '1.2.3.4, 5.6.7.8',
    'localhost',
    'a'.repeat(80),
  ])('ignores %j, which is not an IP address', (text) => {
    expect(shopperKeyOf(text)).toBeNull();
  });
});

describe('purgeRateLimitWindows', () => {
  it('drops windows older than the previous one and keeps the rest', async () => {
    const policy = reads;
    const start = Date.parse('2026-11-22T00:00:00.000Z');
    for (const offset of [0, 1, 2, 3]) {
      await consumeRateLimit(database, { bucket: 'p:r', policy, now: start + offset * 60_000 });
    }
    await purgeRateLimitWindows(database, { now: start + 3 * 60_000 + 5, windowSeconds: 60 });
    const left = (await database.select().from(rateLimitCounters)).filter((r) => r.bucket === 'p:r').map((r) => r.windowStart);
    expect(left.sort()).toEqual([start + 2 * 60_000, start + 3 * 60_000]);
  });
});

/**
 * Budgets count per 60 s window aligned to the clock: a loop of requests that a busy host
 * stretches across a window's end would see two budgets. These tests start at a window's start.
 */
function atAWindowStart() {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(Math.ceil(Date.now() / 60_000) * 60_000 + 1_000);
}

describe('applyRateLimit', () => {
  beforeEach(atAWindowStart);
  afterEach(() => vi.useRealTimers());

  it('answers the draft RateLimit headers and a 429 problem with Retry-After past the budget', async () => {
    const { applyRateLimit } = await import('@/lib/platform/rate-limit/http');
    const credentialId = `cred_${Date.now()}`;
    const first = await applyRateLimit({ credentialId, kind: 'read', buyerIp: null });
    expect(first['RateLimit-Policy']).toBe('"reads";q=3;w=60');
    expect(first.RateLimit).toMatch(/^"reads";r=2;t=([1-9]|[1-5]\d|60)$/);
    await applyRateLimit({ credentialId, kind: 'read', buyerIp: null });
    await applyRateLimit({ credentialId, kind: 'read', buyerIp: null });
    const refused = await applyRateLimit({ credentialId, kind: 'read', buyerIp: null }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    const error = refused as DomainError;
    expect(error.code).toBe('rate_limited');
    expect(Number(error.options.headers?.['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(error.options.headers?.RateLimit).toMatch(/^"reads";r=0;t=\d+$/);
    // Naming a shopper does not get past the credential's budget.
    await expect(applyRateLimit({ credentialId, kind: 'read', buyerIp: '203.0.113.9' })).rejects.toMatchObject({ code: 'rate_limited' });
    // Writes have their own budget.
    expect((await applyRateLimit({ credentialId, kind: 'write', buyerIp: null })).RateLimit).toMatch(/^"writes";r=4;/);
  });

  it('charges a write that names a shopper to the credential too: rotating addresses gains nothing', async () => {
    const { applyRateLimit } = await import('@/lib/platform/rate-limit/http');
    const credentialId = `cred_rotate_${Date.now()}`;
    let accepted = 0;
    for (let i = 0; i < 60; i++) {
      const ip = i % 2 ? `198.51.100.${i}` : `2001:db8:${i.toString(16)}::1`;
      const ok = await applyRateLimit({ credentialId, kind: 'write', buyerIp: shopperKeyOf(ip) }).then(
        () => true,
        () => false,
      );
      if (ok) accepted += 1;
    }
    expect(accepted).toBe(5); // RATE_LIMIT_WRITES, whatever the addresses
    // Garbage in Site-Buyer-IP names no shopper: still the credential's budget.
    expect(shopperKeyOf('abcd:')).toBeNull();
  });

  it('gives each shopper a share of the credential budget; a refused shopper costs the credential nothing', async () => {
    const { applyRateLimit } = await import('@/lib/platform/rate-limit/http');
    const credentialId = `cred_share_${Date.now()}`;
    const a = '203.0.113.9';
    const h1 = await applyRateLimit({ credentialId, kind: 'write', buyerIp: a });
    // The tighter of the two budgets is the one reported: the shopper's 2 (1 left), not the credential's 5 (4 left).
    expect(h1['RateLimit-Policy']).toBe('"shopper-writes";q=2;w=60');
    expect(h1.RateLimit).toMatch(/^"shopper-writes";r=1;/);
    await applyRateLimit({ credentialId, kind: 'write', buyerIp: a });
    for (let i = 0; i < 10; i++) {
      const refused = (await applyRateLimit({ credentialId, kind: 'write', buyerIp: a }).catch((e: unknown) => e)) as DomainError;
      expect(refused.code).toBe('rate_limited');
      expect(refused.detail).toMatch(/^This shopper's writes budget of 2 requests per 60 s/);
      expect(refused.options.headers?.RateLimit).toMatch(/^"shopper-writes";r=0;/);
    }
    // Another shopper, and callers naming none, still have the credential's 3 left.
    const other = await applyRateLimit({ credentialId, kind: 'write', buyerIp: '198.51.100.7' });
    expect(other.RateLimit).toMatch(/^"shopper-writes";r=1;/);
    expect((await applyRateLimit({ credentialId, kind: 'write', buyerIp: null })).RateLimit).toMatch(/^"writes";r=1;/);
    const last = await applyRateLimit({ credentialId, kind: 'write', buyerIp: '198.51.100.8' });
    expect(last['RateLimit-Policy']).toBe('"writes";q=5;w=60'); // the credential's 0 left is now the tighter
    expect(last.RateLimit).toMatch(/^"writes";r=0;/);
    const spent = (await applyRateLimit({ credentialId, kind: 'write', buyerIp: '198.51.100.9' }).catch((e: unknown) => e)) as DomainError;
    expect(spent.detail).toMatch(/^This credential's writes budget of 5/);

    // Reads: the same, with their own per-shopper share.
    const readsOf = `cred_reads_${Date.now()}`;
    await applyRateLimit({ credentialId: readsOf, kind: 'read', buyerIp: a });
    await applyRateLimit({ credentialId: readsOf, kind: 'read', buyerIp: a });
    await expect(applyRateLimit({ credentialId: readsOf, kind: 'read', buyerIp: a })).rejects.toMatchObject({ code: 'rate_limited' });
    // Another shopper is served from what is left of the credential's 3 (its last one).
    expect((await applyRateLimit({ credentialId: readsOf, kind: 'read', buyerIp: '198.51.100.7' })).RateLimit).toMatch(/^"reads";r=0;/);

    const stored = await database.select().from(rateLimitCounters);
    expect(JSON.stringify(stored)).not.toMatch(/203\.0\.113|198\.51\.100|2001:db8/);
  });

  it('admitWrite: the shopper’s claim rides in the write’s batch; past the budget the batch fails whole and the credential is handed its share back', async () => {
    const { admitWrite } = await import('@/lib/platform/rate-limit/http');
    const credentialId = `cred_ride_${Date.now()}`;
    const shopper = '203.0.113.40';
    const counters = () =>
      database
        .select()
        .from(rateLimitCounters)
        .where(sql`${rateLimitCounters.bucket} LIKE ${credentialId + '%'}`);
    // A write carrying the claim: one batch with the write's own statement. Its marker row is
    // in a window no sweep takes (one in ~200 requests sweeps windows that have ended).
    const write = async (marker: string) => {
      const admission = await admitWrite({ credentialId, buyerIp: shopper });
      expect(admission.riders).not.toBeNull();
      await writeBatchWith(database, admission.riders, [
        {
          sql: 'INSERT INTO rate_limit_counters (bucket, window_start, count) VALUES (?, ?, 1)',
          args: [`${credentialId}:marker:${marker}`, MARKER_WINDOW],
        },
      ]);
      return admission.settle();
    };
    expect((await write('a')).RateLimit).toMatch(/^"shopper-writes";r=1;/);
    expect((await write('b')).RateLimit).toMatch(/^"shopper-writes";r=0;/);
    // Known spent on this instance now: refused at once, before anything is taken or rides.
    await expect(admitWrite({ credentialId, buyerIp: shopper })).rejects.toMatchObject({ code: 'rate_limited' });

    // Another instance spends a second shopper's budget between this one's admission and its batch.
    const late = await admitWrite({ credentialId, buyerIp: '198.51.100.40' });
    const [bucket, windowStart] = (late.riders!.statements[0] as unknown as { args: [string, number] }).args;
    await database.insert(rateLimitCounters).values({ bucket, windowStart, count: 2 });
    const failure = await writeBatchWith(database, late.riders, [
      {
        sql: 'INSERT INTO rate_limit_counters (bucket, window_start, count) VALUES (?, ?, 1)',
        args: [`${credentialId}:marker:c`, MARKER_WINDOW],
      },
    ]).catch((error: unknown) => error);
    const refused = late.refusal(failure)!;
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused.detail).toMatch(/^This shopper's writes budget of 2/);
    expect(refused.options.headers?.RateLimit).toMatch(/^"shopper-writes";r=0;/);
    await expect(late.settle()).rejects.toBe(refused);
    // Nothing of the refused write stays, nor its claim.
    const rows = await counters();
    expect(rows.map((r) => r.bucket).filter((b) => b.includes(':marker:'))).toEqual([
      `${credentialId}:marker:a`,
      `${credentialId}:marker:b`,
    ]);
    expect(rows.find((r) => r.bucket === bucket)?.count).toBe(2);

    // A write that ends before its batch (a 422) is still charged to its shopper, at settle.
    const early = await admitWrite({ credentialId, buyerIp: '198.51.100.41' });
    expect((await early.settle()).RateLimit).toMatch(/^"shopper-writes";r=1;/);
    // The refused write cost the credential nothing: 2 + 1 of its 5 are spent, so two more go through.
    const { applyRateLimit } = await import('@/lib/platform/rate-limit/http');
    expect((await applyRateLimit({ credentialId, kind: 'write', buyerIp: null })).RateLimit).toMatch(/^"writes";r=1;/);
  });
});

describe('applyRateLimit while another process holds the write lock', () => {
  beforeEach(atAWindowStart);
  afterEach(() => vi.useRealTimers());

  it('admits a read at once, owed, and fails writes as busy', async () => {
    const { applyRateLimit } = await import('@/lib/platform/rate-limit/http');
    const other = openConnection(url);
    const lock = await other.transaction('write'); // BEGIN IMMEDIATE, as another instance would
    try {
      expect((await applyRateLimit({ credentialId: 'cred_locked', kind: 'read', buyerIp: null })).RateLimit).toMatch(/^"reads";r=2;/);
      await expect(applyRateLimit({ credentialId: 'cred_locked', kind: 'write', buyerIp: null })).rejects.toThrow(/BUSY|locked/i);
    } finally {
      await lock.rollback();
      other.close();
    }
    // Once a claim goes through again, the owed read is charged with it.
    await vi.waitFor(async () => {
      expect((await applyRateLimit({ credentialId: 'cred_locked', kind: 'read', buyerIp: null })).RateLimit).toMatch(/^"reads";r=[01];/);
      const [row] = await database.all<{ count: number }>(
        sql`SELECT sum(count) AS count FROM rate_limit_counters WHERE bucket = ${credentialBucket('cred_locked', 'read')}`,
      );
      expect(Number(row?.count)).toBeGreaterThanOrEqual(2);
    });
  });
});

/**
 * Another process on the same file (another instance, or an import): `hold` takes the write
 * lock and keeps it until release(); `importing` commits write transactions for `ms`, each
 * holding the lock ~20 ms with ~2 ms between them.
 */
function anotherProcess(mode: 'hold' | 'importing', ms = 0) {
  const file = url.slice('file:'.length);
  const source = `
    const Database = require('node:module').createRequire(process.cwd() + '/package.json')('libsql');
    const db = new Database(${JSON.stringify(file)}, { timeout: 5000 });
    const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    db.exec('CREATE TABLE IF NOT EXISTS import_probe (v INTEGER)');
    if (${JSON.stringify(mode)} === 'hold') {
      db.exec('BEGIN IMMEDIATE');
      db.exec('INSERT INTO import_probe VALUES (0)');
      console.log('locked');
      process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); process.exit(0); });
    } else {
      const end = Date.now() + ${ms};
      console.log('locked');
      while (Date.now() < end) {
        db.exec('BEGIN IMMEDIATE');
        db.exec('INSERT INTO import_probe VALUES (1)');
        pause(20);
        db.exec('COMMIT');
        pause(2);
      }
      db.close();
    }`;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['pipe', 'pipe', 'inherit'] });
  const locked = new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { locked, exited, release: () => child.stdin!.write('go\n'), kill: () => child.kill('SIGKILL') };
}

describe('a read budget while another process writes', () => {
  beforeEach(atAWindowStart);
  afterEach(() => vi.useRealTimers());

  const counter = async (bucket: string) =>
    Number(
      (await database.all<{ count: number }>(sql`SELECT sum(count) AS count FROM rate_limit_counters WHERE bucket = ${bucket}`))[0]
        ?.count ?? 0,
    );

  it('admits reads it cannot count only within what is left, and charges them at the next claim', async () => {
    const { applyRateLimit } = await import('@/lib/platform/rate-limit/http');
    const credentialId = `cred_locked_${Date.now()}`;
    const read = () =>
      applyRateLimit({ credentialId, kind: 'read', buyerIp: null }).then(
        () => 'ok',
        (e: DomainError) => e.code,
      );
    expect(await read()).toBe('ok'); // counted: 1 of 3
    const other = anotherProcess('hold');
    try {
      await other.locked;
      // The lock is taken: no read can be counted, and only the 2 left are admitted.
      const answers = [];
      for (let i = 0; i < 10; i++) answers.push(await read());
      expect(answers).toEqual(['ok', 'ok', ...Array(8).fill('rate_limited')]);
      other.release();
      expect(await other.exited).toBe(0);
    } finally {
      other.kill();
    }
    // The next claim (once the lock is seen to be gone) charges the 2 admitted under the lock: the budget is spent.
    await vi.waitFor(async () => {
      expect(await read()).toBe('rate_limited');
      expect(await counter(credentialBucket(credentialId, 'read'))).toBe(4);
    });
  });

  it('admits no more than the budget while an import on another process commits in a loop', { timeout: 60_000 }, async () => {
    const { applyRateLimit } = await import('@/lib/platform/rate-limit/http');
    const credentialId = `cred_import_${Date.now()}`;
    const other = anotherProcess('importing', 3_000);
    let running = true;
    void other.exited.then(() => (running = false));
    await other.locked;
    let admitted = 0;
    let attempts = 0;
    try {
      // Several requests at a time, as a server takes them.
      const client = async () => {
        while (running) {
          attempts += 1;
          if (
            await applyRateLimit({ credentialId, kind: 'read', buyerIp: null }).then(
              () => true,
              () => false,
            )
          )
            admitted += 1;
          await new Promise((r) => setImmediate(r));
        }
      };
      await Promise.all(Array.from({ length: 4 }, client));
      expect(await other.exited).toBe(0);
    } finally {
      other.kill();
    }
    expect(attempts).toBeGreaterThan(100);
    expect(admitted).toBe(3); // the budget (RATE_LIMIT_READS)
    // Whatever was admitted owed has been or is charged at the next claim: the shared count
    // holds every admitted read (more when refused ones claimed too).
    await applyRateLimit({ credentialId, kind: 'read', buyerIp: null }).catch(() => undefined);
    expect(await counter(credentialBucket(credentialId, 'read'))).toBeGreaterThanOrEqual(admitted);
  });
});
