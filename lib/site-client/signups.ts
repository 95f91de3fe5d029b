import 'server-only';
import type { z } from 'zod';
import {
  confirmSubscription,
  createNewsletterSubscription,
  createStockSubscription,
  withdrawSubscription,
} from '@/lib/contract/operations/signups';
import type { NewsletterSubscriptionRequest, StockSubscriptionRequest } from '@/lib/contract/signups';
import { call } from './request';

type WriteOptions = { idempotencyKey?: string; buyerIp?: string | null };

export async function subscribeToRestock(body: z.input<typeof StockSubscriptionRequest>, options: WriteOptions = {}) {
  return (await call(createStockSubscription, { body, ...options })).data;
}

export async function subscribeToNewsletter(body: z.input<typeof NewsletterSubscriptionRequest>, options: WriteOptions = {}) {
  return (await call(createNewsletterSubscription, { body, ...options })).data;
}

/** Confirms a subscription with the token from its confirmation mail; answers its state now. */
export async function confirmSubscriptionByToken(token: string, options: { buyerIp?: string | null } = {}) {
  return (await call(confirmSubscription, { body: { token }, ...options })).data;
}

/** Unsubscribes with the token from any of the subscription's mails. */
export async function unsubscribeByToken(token: string, method: 'one_click' | 'page', options: { buyerIp?: string | null } = {}) {
  return (await call(withdrawSubscription, { body: { token, method }, ...options })).data;
}
