// The jobs' timers under `next start` (lib/jobs/timers.ts) as an idle instance runs them: the
// outbox drain passes when this process queued a message, and otherwise only every
// OUTBOX_DRAIN_INTERVAL_MS, so an idle instance does not poll a hosted database.
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { DbOrTx } from '@/db/client';

vi.mock('server-only', () => ({}));
const passes = vi.hoisted(() => ({ count: 0 }));
vi.mock('@/lib/mail/drain', () => ({
  drainerId: () => 'test',
  drainOutbox: async () => {
    passes.count += 1;
    return { sent: 0, retried: 0, failed: 0, skipped: 0 };
  },
}));

// Read once, on first use (lib/env.ts): set before anything asks. An idle pass a minute apart.
Object.assign(process.env, { JOBS: 'timers', OUTBOX_DRAIN: 'on', OUTBOX_DRAIN_INTERVAL_MS: '60000', DATABASE_URL: 'file::memory:' });
delete process.env.SMTP_URL;

const { startJobTimers } = await import('@/lib/jobs/timers');
const { enqueueOutboxMessage } = await import('@/lib/commerce/signups/outbox');
const log = vi.spyOn(console, 'log').mockImplementation(() => {});
afterAll(() => log.mockRestore());

// Only the queued-here count matters here: a stand-in transaction takes the insert.
const tx = { insert: () => ({ values: async () => undefined }) } as unknown as DbOrTx;
const queue = () =>
  enqueueOutboxMessage(tx, {
    siteId: 's',
    topic: 'newsletter_subscription.confirmation_requested',
    aggregateId: 'a',
    payload: {},
    at: Date.now(),
  });

describe('the outbox timer', () => {
  it('does not pass while nothing is queued here, and passes within a tick of each message queued', async () => {
    const timers = startJobTimers(['outbox'])!;
    try {
      // Four ticks (500 ms each) with nothing queued: no pass, no database request.
      await new Promise((r) => setTimeout(r, 2_000));
      expect(passes.count).toBe(0);
      await queue();
      await expect.poll(() => passes.count, { timeout: 5_000 }).toBe(1);
      await queue();
      await queue();
      await expect.poll(() => passes.count, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    } finally {
      await timers.stop();
    }
  });
});
