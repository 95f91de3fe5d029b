import 'server-only';
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { configuredMailer, drainSettings } from '@/lib/mail/config';
import { drainOutbox, drainerId } from '@/lib/mail/drain';
import { messagesQueuedHere } from '@/lib/commerce/signups/outbox';
import { outboxMessages } from '@/db/schema';
import { eq, sql } from 'drizzle-orm';
import type { Job } from './types';

/** How soon a message queued by this process is sent (a look at memory, not the database). */
const QUEUED_HERE_TICK_MS = 500;

/**
 * Sends what the outbox holds that is due (signup confirmations, back-in-stock notices). The
 * drain leases the rows it sends, so any number of passes on any number of instances send
 * each message once. On a timer it passes within half a second of a message queued by this
 * process, and every OUTBOX_DRAIN_INTERVAL_MS for the rest (queued elsewhere: another
 * instance, a restock by the catalog command; retries coming due).
 */
export const outboxJob: Job = {
  name: 'outbox',
  about: 'send the mails that are due',
  everyMs: () => (env().OUTBOX_DRAIN === 'off' ? null : Math.min(QUEUED_HERE_TICK_MS, env().OUTBOX_DRAIN_INTERVAL_MS)),
  wake: { moved: messagesQueuedHere, idleEveryMs: () => env().OUTBOX_DRAIN_INTERVAL_MS },
  start() {
    const mailer = configuredMailer();
    const options = { database: db(), drainer: drainerId(), ...drainSettings(mailer) };
    return {
      pass: async (context) => ({ ...(await drainOutbox({ ...options, stopped: context.stopped })) }),
      close: () => mailer.close(),
    };
  },
};

/**
 * What waits in the outbox, for GET /metrics: pending messages of every channel and the age
 * of the oldest (0 when none waits). One indexed read per scrape.
 */
export async function outboxBacklog(now = Date.now()): Promise<{ depth: number; oldestAgeSeconds: number }> {
  const [row] = await db()
    .select({ depth: sql<number>`count(*)`, oldest: sql<number | null>`min(${outboxMessages.createdAt})` })
    .from(outboxMessages)
    .where(eq(outboxMessages.status, 'pending'));
  const oldest = row?.oldest ?? null;
  return { depth: Number(row?.depth ?? 0), oldestAgeSeconds: oldest === null ? 0 : Math.max(0, (now - oldest) / 1000) };
}
