import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { fetchSite, preparePayment } from '@/lib/site-client';
import { OrderSummary } from '../../../_components/checkout/order-summary';
import { checkoutSession } from '../../../_lib/checkout';
import { formatMoney } from '../../../_lib/format';
import { shop } from '../../../_lib/shop';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ sessionId: string }> };

export async function generateMetadata(): Promise<Metadata> {
  const { site, t } = await shop();
  return { title: `${t.confirmationTitle} | ${site.name}`, robots: { index: false, follow: false } };
}

export default async function ConfirmationPage({ params }: Props) {
  const [{ sessionId }, { t, locale }] = await Promise.all([params, shop()]);
  const [{ session }, site] = await Promise.all([checkoutSession(sessionId), fetchSite()]);
  if (session.status === 'open') redirect(`/checkout/${session.id}`);
  if (session.status === 'expired') {
    return (
      <div className="state" role="alert">
        <h1>{t.secureCheckout}</h1>
        <p>{t.sessionExpired}</p>
        <Link className="btn btn-primary" href="/cart">{t.backToCart}</Link>
      </div>
    );
  }
  // Asking again answers the same payment (and with the same key the API replays it).
  const { payment } = await preparePayment(session.id, 'card', { idempotencyKey: `prepare-${session.id}` });
  const market = site.markets.find((m) => m.id === session.market);
  return (
    <>
      <div className="page-head">
        <h1>{t.confirmationTitle}</h1>
        <p>{t.confirmationText}</p>
      </div>
      <div className="two-col">
        <section className="panel" aria-labelledby="payment-title">
          <h2 id="payment-title">{t.payment}</h2>
          <dl className="details">
            <dt>{t.paymentReference}</dt>
            <dd><code className="reference" data-testid="payment-reference">{payment.reference}</code></dd>
            <dt>{t.paymentProvider}</dt>
            <dd>{payment.provider}</dd>
            <dt>{t.amount}</dt>
            <dd>{formatMoney(payment.amount, locale)}</dd>
            <dt>{t.orderNumber}</dt>
            <dd><code>{session.id}</code></dd>
          </dl>
          <Link className="btn btn-secondary" href="/">{t.continueShopping}</Link>
        </section>
        <OrderSummary session={session} locale={locale} taxInclusive={market?.taxInclusive ?? true} t={t} />
      </div>
    </>
  );
}
