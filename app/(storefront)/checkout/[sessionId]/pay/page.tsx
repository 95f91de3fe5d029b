import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { fetchSite, preparePayment } from '@/lib/site-client';
import { OrderSummary } from '../../../_components/checkout/order-summary';
import { checkoutSession, paymentKey } from '../../../_lib/checkout';
import { formatMoney } from '../../../_lib/format';
import { fill } from '../../../_lib/i18n';
import { shop } from '../../../_lib/shop';
import { SessionExpired } from '../../../_components/checkout/session-expired';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ sessionId: string }> };

export async function generateMetadata(): Promise<Metadata> {
  const { site, t } = await shop();
  return { title: `${t.payment} | ${site.name}`, robots: { index: false, follow: false } };
}

/**
 * Paying for a session: a provider's hosted page is elsewhere (the shopper was sent there
 * and comes back to the confirmation), so this page is the way back to it; the sandbox has
 * no page of its own, so this is its demo payment page, whose buttons post to the sandbox.
 */
export default async function PayPage({ params }: Props) {
  const [{ sessionId }, { t, locale }] = await Promise.all([params, shop()]);
  const [{ session, etag }, site] = await Promise.all([checkoutSession(sessionId), fetchSite()]);
  if (session.status === 'open') redirect(`/checkout/${session.id}`);
  if (session.status === 'completed') redirect(`/checkout/${session.id}/confirmation`);
  if (session.status === 'expired') {
    return <SessionExpired t={t} />;
  }
  // A session waiting for payment answers the payment it has (nothing new is made).
  const { payment } = await preparePayment(session.id, 'card', { idempotencyKey: paymentKey('pay', session.id, etag) });
  const market = site.markets.find((m) => m.id === session.market);
  const amount = formatMoney(payment.amount, locale);
  return (
    <>
      <div className="page-head">
        <h1>{payment.redirectUrl ? t.awaitingTitle : t.sandboxTitle}</h1>
      </div>
      <div className="two-col">
        <section className="panel" aria-labelledby="pay-title">
          <h2 id="pay-title">{t.payment}</h2>
          {payment.redirectUrl ? (
            <>
              <p>{t.awaitingText}</p>
              <a className="btn btn-primary btn-block" href={payment.redirectUrl}>
                {t.continuePayment}
              </a>
            </>
          ) : (
            <>
              <p className="notice">{t.sandboxText}</p>
              <form method="post" action="/api/payments/sandbox">
                <input type="hidden" name="sessionId" value={session.id} />
                <input type="hidden" name="clientToken" value={payment.clientToken} />
                <button className="btn btn-primary btn-block" type="submit" name="action" value="pay">
                  {fill(t.payNow, { amount })}
                </button>
                <button className="btn btn-secondary btn-block mt-16" type="submit" name="action" value="cancel">
                  {t.cancelPayment}
                </button>
              </form>
            </>
          )}
        </section>
        <OrderSummary session={session} locale={locale} taxInclusive={market?.taxInclusive ?? true} t={t} />
      </div>
    </>
  );
}
