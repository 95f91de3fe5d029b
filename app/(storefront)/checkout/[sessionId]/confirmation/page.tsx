import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import type { Address } from '@/lib/contract/checkout';
import { fetchSite, preparePayment } from '@/lib/site-client';
import { OrderSummary } from '../../../_components/checkout/order-summary';
import { checkoutSession } from '../../../_lib/checkout';
import { formatCountry, formatMoney } from '../../../_lib/format';
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
        <div>
          <section className="panel" aria-labelledby="reference-title">
            <h2 id="reference-title">{t.orderNumber}</h2>
            {/* The session id is what the merchant finds the order by (GET /checkout/sessions/{id}). */}
            <p className="order-reference"><code className="reference">{session.id}</code></p>
            <p className="muted m-0">{t.quoteReference}</p>
          </section>
          {session.shippingAddress ? (
            <section className="panel mt-16" aria-labelledby="address-title">
              <h2 id="address-title">{t.deliveryTo}</h2>
              <AddressLines address={session.shippingAddress} locale={locale} />
              {session.deliveryOption ? (
                <p className="mb-0"><span className="muted">{t.deliveryMethod}:</span> {session.deliveryOption.title} ({session.deliveryOption.carrier})</p>
              ) : null}
            </section>
          ) : null}
          <section className="panel mt-16" aria-labelledby="payment-title">
            <h2 id="payment-title">{t.payment}</h2>
            <dl className="details">
              <dt>{t.paymentReference}</dt>
              <dd><code className="reference" data-testid="payment-reference">{payment.reference}</code></dd>
              <dt>{t.paymentProvider}</dt>
              <dd>{payment.provider}</dd>
              <dt>{t.amount}</dt>
              <dd>{formatMoney(payment.amount, locale)}</dd>
            </dl>
            <Link className="btn btn-secondary" href="/">{t.continueShopping}</Link>
          </section>
        </div>
        <OrderSummary session={session} locale={locale} taxInclusive={market?.taxInclusive ?? true} t={t} />
      </div>
    </>
  );
}

/**
 * The address as the shopper gave it, one line each, the country named in their language;
 * the town line in the country's order ("New York, NY 10118" in the US, "111 22 Stockholm" here).
 */
function AddressLines({ address, locale }: { address: Address; locale: string }) {
  const town = address.country === 'US'
    ? [`${address.city}, ${address.region ?? ''} ${address.postalCode}`.replace(/ {2,}/g, ' ')]
    : [`${address.postalCode} ${address.city}`, address.region];
  const lines = [
    `${address.firstName} ${address.lastName}`,
    address.line1,
    address.line2,
    ...town,
    formatCountry(address.country, locale),
  ].filter((line): line is string => Boolean(line && line.trim()));
  return (
    <address className="address-recap">
      {lines.map((line, i) => <span key={i}>{line}</span>)}
    </address>
  );
}
