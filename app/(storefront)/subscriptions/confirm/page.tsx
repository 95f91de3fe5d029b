import type { Metadata } from 'next';
import Link from 'next/link';
import { confirmSubscriptionByToken, isSiteApiError } from '@/lib/site-client';
import type { Dictionary } from '../../_lib/i18n';
import { shop } from '../../_lib/shop';

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<{ token?: string | string[] }> };

export async function generateMetadata(): Promise<Metadata> {
  const { site, t } = await shop();
  // The URL holds a token: never indexed, never sent on as a Referer.
  return { title: `${t.subscriptionTitle} | ${site.name}`, robots: { index: false, follow: false }, referrer: 'no-referrer' };
}

type Outcome = { tone: 'success' | 'info' | 'error'; text: string };

async function confirm(token: string | undefined, t: Dictionary): Promise<Outcome> {
  if (!token) return { tone: 'error', text: t.linkInvalid };
  try {
    const state = await confirmSubscriptionByToken(token);
    if (state.status === 'unsubscribed') return { tone: 'info', text: t.confirmedUnsubscribed };
    if (state.kind === 'newsletter') return { tone: 'success', text: t.confirmedNewsletter };
    return { tone: 'success', text: state.status === 'notified' ? t.confirmedStockNotified : t.confirmedStock };
  } catch (error) {
    if (isSiteApiError(error, 'token_expired')) return { tone: 'error', text: t.linkExpired };
    if (isSiteApiError(error, 'unknown_token') || isSiteApiError(error, 'validation_failed')) return { tone: 'error', text: t.linkInvalid };
    throw error;
  }
}

/**
 * The double opt-in link of a confirmation mail. Opening it confirms (the link exists for
 * nothing else, and confirming again is harmless); what happened is said in words.
 */
export default async function ConfirmSubscriptionPage({ searchParams }: Props) {
  const [{ token }, { t }] = await Promise.all([searchParams, shop()]);
  const outcome = await confirm(typeof token === 'string' ? token : undefined, t);
  return (
    <div className="state">
      <h1>{t.subscriptionTitle}</h1>
      <p className={`notice notice-${outcome.tone}`} role={outcome.tone === 'error' ? 'alert' : 'status'}>{outcome.text}</p>
      <p className="mt-24">
        <Link className="btn btn-secondary" href="/">{t.continueShopping}</Link>
      </p>
    </div>
  );
}
