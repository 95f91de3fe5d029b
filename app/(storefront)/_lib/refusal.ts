import 'server-only';
import { cookies } from 'next/headers';
import { isSiteApiError, shopperLimitedFor } from '@/lib/site-client';
import { dictionary, fill, uiLanguage } from './i18n';
import { buyerIp, LOCALE_COOKIE } from './shop';

/**
 * What a form's server action tells the shopper when the shop itself could not be read
 * (shop() failed): over their own budget, the wait in words; else "try again". In the
 * language of the locale cookie, since the Site (which knows its default) could not be
 * asked. Nothing is thrown, so nothing reaches the log as an error with its stack.
 */
export async function refusalText(error: unknown): Promise<string> {
  const t = dictionary(uiLanguage((await cookies()).get(LOCALE_COOKIE)?.value ?? 'en'));
  if (!isSiteApiError(error, 'rate_limited')) return t.tryAgainLater;
  return fill(t.busyText, { seconds: shopperLimitedFor(await buyerIp()) ?? 60 });
}
