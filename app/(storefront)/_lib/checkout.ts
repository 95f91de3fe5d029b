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
