'use server';
import { isSiteApiError, unsubscribeByToken } from '@/lib/site-client';
import { logger } from '@/lib/platform/observability/logger';
import { buyerIp } from '../_lib/shop';

export type UnsubscribeState =
  { status: 'idle' } | { status: 'done'; kind: 'stock' | 'newsletter' } | { status: 'error'; invalid: boolean };

/** The unsubscribe page's button: the withdrawal is recorded as made on the page. */
export async function unsubscribe(_: UnsubscribeState, form: FormData): Promise<UnsubscribeState> {
  const token = String(form.get('token') ?? '');
  try {
    const state = await unsubscribeByToken(token, 'page', { buyerIp: await buyerIp() });
    return { status: 'done', kind: state.kind };
  } catch (error) {
    const invalid = isSiteApiError(error, 'unknown_token') || isSiteApiError(error, 'validation_failed');
    if (!invalid && !isSiteApiError(error)) logger().warn({ action: 'unsubscribe' }, 'storefront: the API could not be reached');
    return { status: 'error', invalid };
  }
}
