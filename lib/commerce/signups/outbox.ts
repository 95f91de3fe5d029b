import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { outboxMessages } from '@/db/schema';
import type { Database, DbOrTx, Statement, Value } from '@/db';
import { processSlot } from '@/lib/process-state';

/** Topics a notification worker drains; the payload carries the references the message is rendered from. */
export const OUTBOX_TOPICS = {
  stockConfirmation: 'stock_subscription.confirmation_requested',
  newsletterConfirmation: 'newsletter_subscription.confirmation_requested',
  /** Written by database triggers (db/migrations/0006_add_mail_delivery.sql), never by TypeScript. */
  backInStock: 'stock_subscription.back_in_stock',
  /** The shopper's receipt and the merchant's notice of a new order (lib/commerce/orders). */
  orderConfirmation: 'order.confirmation',
  orderNotice: 'order.merchant_notice',
} as const;
export type OutboxTopic = (typeof OUTBOX_TOPICS)[keyof typeof OUTBOX_TOPICS];

const queuedHere = () => processSlot('messagesQueued', () => ({ count: 0 }));

/**
 * How many messages this process has queued so far: the background drain passes soon after
 * it moves, and otherwise only now and then (messages queued elsewhere, retries due), so an
 * idle instance does not poll the database. Process-wide (lib/process-state): signups run in the
 * routes' bundles, the drain in instrumentation's.
 */
export function messagesQueuedHere(): number {
  return queuedHere().count;
}

/**
 * Queues one message in the transactional outbox. Call it inside the transaction that
 * makes the change it announces: the message exists if and only if the change does.
 */
export async function enqueueOutboxMessage(
  tx: DbOrTx,
  message: { siteId: string; topic: OutboxTopic; aggregateId: string; payload: Record<string, unknown>; at: number; channel?: string },
): Promise<void> {
  await tx.insert(outboxMessages).values({
    siteId: message.siteId,
    topic: message.topic,
    aggregateId: message.aggregateId,
    payload: message.payload,
    channel: message.channel ?? 'email',
    createdAt: message.at,
    nextAttemptAt: message.at,
  });
  queuedHere().count += 1;
}

/**
 * The confirmation (double opt-in) message of a new or re-armed subscription, newsletter or
 * stock alike: what the drain needs to address it, plus the kind's own fields (`extra`).
 */
type Confirmation = {
  topic: OutboxTopic;
  siteId: string;
  subscriptionId: string;
  email: string;
  locale: string;
  marketId: string;
  consentId: string;
  at: number;
  extra: Record<string, unknown>;
};

const confirmationPayload = ({ subscriptionId, siteId, email, locale, marketId, extra, consentId, at }: Confirmation) => ({
  subscriptionId,
  siteId,
  email,
  locale,
  marketId,
  ...extra,
  consentId,
  requestedAt: new Date(at).toISOString(),
});

export async function enqueueConfirmation(tx: DbOrTx, input: Confirmation): Promise<void> {
  const { topic, siteId, subscriptionId, at } = input;
  await enqueueOutboxMessage(tx, { siteId, topic, aggregateId: subscriptionId, at, payload: confirmationPayload(input) });
}

/**
 * enqueueConfirmation as a statement of a write batch, for a subscription the same batch
 * writes first: `subscription` selects its id when the signup armed it (and nothing when it
 * did not: then no message). Once the batch has committed with a message, call noteQueued.
 */
export function confirmationStatement(
  input: Omit<Confirmation, 'subscriptionId'>,
  subscription: { sql: string; args: Value[] },
): Statement {
  const payload = JSON.stringify(confirmationPayload({ ...input, subscriptionId: '' }));
  return {
    sql: `INSERT INTO outbox_messages (site_id, topic, aggregate_id, payload, channel, created_at, next_attempt_at)
      SELECT ?, ?, armed.id, json_set(?, '$.subscriptionId', armed.id), 'email', ?, ? FROM (${subscription.sql}) AS armed`,
    args: [input.siteId, input.topic, payload, input.at, input.at, ...subscription.args],
  };
}

/** A message queued by a batch of confirmationStatement has committed (see messagesQueuedHere). */
export function noteQueued(): void {
  queuedHere().count += 1;
}

export type OutboxMessage = typeof outboxMessages.$inferSelect;

/** How hard the drain tries before it parks a message as `failed`. */
export type RetryPolicy = { maxAttempts: number; baseDelayMs: number; maxDelayMs: number };

/**
 * Takes up to `limit` due messages of one channel for `drainer` until `now + leaseMs`. The
 * UPDATE … RETURNING decides who gets a row (it checks again that the row is still free),
 * so any number of drainers — processes, machines on one database — never hold the same
 * message at once. A drainer that dies holding messages loses them when its lease runs out,
 * and another takes them over. The read first keeps an idle pass from taking the write lock.
 */
export async function claimDueMessages(
  database: Database,
  claim: { drainer: string; now: number; leaseMs: number; limit: number; channel?: string },
): Promise<OutboxMessage[]> {
  const { drainer, now, leaseMs, limit, channel = 'email' } = claim;
  const free = or(isNull(outboxMessages.leaseUntil), lte(outboxMessages.leaseUntil, now));
  const due = await database
    .select({ id: outboxMessages.id })
    .from(outboxMessages)
    .where(and(eq(outboxMessages.channel, channel), eq(outboxMessages.status, 'pending'), lte(outboxMessages.nextAttemptAt, now), free))
    .orderBy(asc(outboxMessages.nextAttemptAt), asc(outboxMessages.id))
    .limit(limit);
  if (due.length === 0) return [];
  const claimed = await database
    .update(outboxMessages)
    .set({ leaseUntil: now + leaseMs, claimedBy: drainer })
    .where(
      and(
        inArray(
          outboxMessages.id,
          due.map((d) => d.id),
        ),
        eq(outboxMessages.status, 'pending'),
        free,
      ),
    )
    .returning();
  return claimed.sort((a, b) => a.id - b.id);
}

/** Handed to the mail server: done. Counted as an attempt. */
export async function markSent(database: Database, id: number, now: number): Promise<void> {
  await database
    .update(outboxMessages)
    .set({ status: 'sent', dispatchedAt: now, attempts: sql`${outboxMessages.attempts} + 1`, leaseUntil: null, lastError: null })
    .where(and(eq(outboxMessages.id, id), eq(outboxMessages.status, 'pending')));
}

/** Nothing left to say (the subscription was left or confirmed meanwhile): kept, with the reason. */
export async function markSkipped(database: Database, id: number, reason: string): Promise<void> {
  await database
    .update(outboxMessages)
    .set({ status: 'skipped', leaseUntil: null, lastError: reason })
    .where(and(eq(outboxMessages.id, id), eq(outboxMessages.status, 'pending')));
}

/** The delay before attempt `attempts + 1`: base × 2^(attempts − 1), capped. */
export function retryDelayMs(attempts: number, policy: RetryPolicy): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * A failed attempt: counted, with its error, and retried after an exponential backoff; the
 * last allowed attempt parks the message as `failed` (never deleted: an operator can look at
 * it and queue it again with `npm run outbox -- retry`).
 */
export async function markFailed(
  database: Database,
  message: Pick<OutboxMessage, 'id' | 'attempts'>,
  error: string,
  now: number,
  policy: RetryPolicy,
): Promise<'retry' | 'failed'> {
  const attempts = message.attempts + 1;
  const parked = attempts >= policy.maxAttempts;
  await database
    .update(outboxMessages)
    .set({
      attempts,
      lastError: error.slice(0, 1000),
      leaseUntil: null,
      ...(parked ? { status: 'failed' as const } : { nextAttemptAt: now + retryDelayMs(attempts, policy) }),
    })
    .where(and(eq(outboxMessages.id, message.id), eq(outboxMessages.status, 'pending')));
  return parked ? 'failed' : 'retry';
}

/** Parked messages go back in the queue, due now, with a fresh count of attempts. */
export async function requeueFailedMessages(database: Database, now: number, ids?: number[]): Promise<number> {
  const rows = await database
    .update(outboxMessages)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: now, leaseUntil: null })
    .where(and(eq(outboxMessages.status, 'failed'), ids ? inArray(outboxMessages.id, ids) : undefined))
    .returning({ id: outboxMessages.id });
  return rows.length;
}

/** Counts by channel and status, for the operator's `npm run outbox -- status`. */
export async function outboxSummary(database: Database) {
  return database
    .select({ channel: outboxMessages.channel, status: outboxMessages.status, count: sql<number>`count(*)` })
    .from(outboxMessages)
    .groupBy(outboxMessages.channel, outboxMessages.status)
    .orderBy(outboxMessages.channel, outboxMessages.status);
}
