import 'server-only';
import { notFound } from 'next/navigation';
import { fetchCheckoutSession, isSiteApiError } from '@/lib/site-client';

const SESSION_ID = /^cs_[A-Za-z0-9]{1,80}$/;

/** The session behind /checkout/{id}; a malformed, unknown or other Site's id is a 404. */
export async function checkoutSession(id: string) {
  if (!SESSION_ID.test(id)) notFound();
  try {
    return await fetchCheckoutSession(id);
  } catch (error) {
    if (isSiteApiError(error, 'not_found')) notFound();
    throw error;
  }
}

/** An idempotency key for a payment step of one version of the session (its ETag's revision). */
export function paymentKey(step: string, id: string, etag: string | null | undefined): string {
  return `${step}-${id}-r${/-r(\d+)"?$/.exec(etag ?? '')?.[1] ?? '0'}`;
}
