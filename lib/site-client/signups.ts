import 'server-only';
import type { z } from 'zod';
import { createNewsletterSubscription, createStockSubscription } from '@/lib/contract/operations/signups';
import type { NewsletterSubscriptionRequest, StockSubscriptionRequest } from '@/lib/contract/signups';
import { call } from './request';

type WriteOptions = { idempotencyKey?: string; buyerIp?: string | null };

export async function subscribeToRestock(body: z.input<typeof StockSubscriptionRequest>, options: WriteOptions = {}) {
  return (await call(createStockSubscription, { body, ...options })).data;
}

export async function subscribeToNewsletter(body: z.input<typeof NewsletterSubscriptionRequest>, options: WriteOptions = {}) {
  return (await call(createNewsletterSubscription, { body, ...options })).data;
}
