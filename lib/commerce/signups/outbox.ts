import { outboxMessages } from '@/db/schema';
import type { DbOrTx } from '@/db/client';

/** Topics a notification worker drains; the payload carries everything the confirmation mail needs. */
export const OUTBOX_TOPICS = {
  stockConfirmation: 'stock_subscription.confirmation_requested',
  newsletterConfirmation: 'newsletter_subscription.confirmation_requested',
} as const;
export type OutboxTopic = (typeof OUTBOX_TOPICS)[keyof typeof OUTBOX_TOPICS];

/**
 * Queues one message in the transactional outbox. Call it inside the transaction that
 * makes the change it announces: the message exists if and only if the change does.
 */
export async function enqueueOutboxMessage(
  tx: DbOrTx,
  message: { siteId: string; topic: OutboxTopic; aggregateId: string; payload: Record<string, unknown>; at: number },
): Promise<void> {
  await tx.insert(outboxMessages).values({
    siteId: message.siteId,
    topic: message.topic,
    aggregateId: message.aggregateId,
    payload: message.payload,
    createdAt: message.at,
  });
}
