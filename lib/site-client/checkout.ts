import 'server-only';
import type { z } from 'zod';
import {
  changeCheckoutCountry,
  createCheckoutSession,
  getCheckoutSession,
  listDeliveryOptions,
  prepareCheckoutPayment,
  suggestCheckoutAddresses,
  updateCheckoutSession,
} from '@/lib/contract/operations/checkout';
import type { CreateCheckoutSessionBody, PaymentMethod, UpdateCheckoutSessionBody } from '@/lib/contract/checkout';
import { call } from './request';

type WriteOptions = { idempotencyKey?: string; buyerIp?: string | null };

/** Starts a checkout; send an Idempotency-Key so a double submit makes one session. */
export async function startCheckout(body: z.input<typeof CreateCheckoutSessionBody>, options: WriteOptions = {}) {
  const result = await call(createCheckoutSession, { body, ...options });
  return { session: result.data, replayed: result.replayed };
}

/** The session and its ETag (for If-Match on the next change). */
export async function fetchCheckoutSession(id: string) {
  const result = await call(getCheckoutSession, { params: { id } });
  return { session: result.data, etag: result.etag };
}

export async function updateCheckout(
  id: string,
  body: z.input<typeof UpdateCheckoutSessionBody>,
  options: WriteOptions & { ifMatch?: string } = {},
) {
  const result = await call(updateCheckoutSession, { params: { id }, body, ...options });
  return { session: result.data, etag: result.etag };
}

export async function suggestAddresses(id: string, q: string) {
  return (await call(suggestCheckoutAddresses, { params: { id }, query: { q } })).data;
}

export async function changeCountry(id: string, country: string, options: WriteOptions = {}) {
  return (await call(changeCheckoutCountry, { params: { id }, body: { country }, ...options })).data;
}

export async function deliveryOptions(id: string, body: { postalCode?: string; select?: string } = {}, options: WriteOptions = {}) {
  return (await call(listDeliveryOptions, { params: { id }, body, ...options })).data;
}

export async function preparePayment(id: string, method?: z.input<typeof PaymentMethod>, options: WriteOptions = {}) {
  return (await call(prepareCheckoutPayment, { params: { id }, body: method ? { method } : {}, ...options })).data;
}
