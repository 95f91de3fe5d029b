'use server';
import { confirmSubscriptionByToken, isSiteApiError } from '@/lib/site-client';
import { logger } from '@/lib/platform/observability/logger';
import { refusalText } from '../_lib/refusal';
import { buyerIp } from '../_lib/shop';

export type ConfirmState =
  | { status: 'idle' }
  | { status: 'done'; outcome: 'newsletter' | 'stock' | 'stockNotified' | 'unsubscribed' }
  | { status: 'error'; reason: 'invalid' | 'expired' }
  | { status: 'error'; reason: 'refused'; message: string };

const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * The confirmation page's button: the one way a double opt-in is confirmed. Opening the
 * link only shows the page, since mail scanners open every link in a mail.
 */
export async function confirmByButton(_: ConfirmState, form: FormData): Promise<ConfirmState> {
  const token = String(form.get('token') ?? '');
  if (!TOKEN.test(token)) return { status: 'error', reason: 'invalid' };
  try {
    const state = await confirmSubscriptionByToken(token, { buyerIp: await buyerIp() });
    if (state.status === 'unsubscribed') return { status: 'done', outcome: 'unsubscribed' };
    if (state.kind === 'newsletter') return { status: 'done', outcome: 'newsletter' };
    return { status: 'done', outcome: state.status === 'notified' ? 'stockNotified' : 'stock' };
  } catch (error) {
    if (isSiteApiError(error, 'token_expired')) return { status: 'error', reason: 'expired' };
    if (isSiteApiError(error, 'unknown_token') || isSiteApiError(error, 'validation_failed')) return { status: 'error', reason: 'invalid' };
    if (!isSiteApiError(error)) logger().warn({ action: 'confirm' }, 'storefront: the API could not be reached');
    return { status: 'error', reason: 'refused', message: await refusalText(error) };
  }
}
