import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import type { Address } from '@/lib/contract/checkout';
import { fetchSite } from '@/lib/site-client';
import { OrderSummary } from '../../../_components/checkout/order-summary';
import { ShopLink } from '../../../_components/shop-link';
import { checkoutSession } from '../../../_lib/checkout';
import { formatCountry } from '../../../_lib/format';
import { shop } from '../../../_lib/shop';
import { SessionExpired } from '../../../_components/checkout/session-expired';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ sessionId: string }>; searchParams: Promise<{ payment?: string; demo?: string }> };

export async function generateMetadata(): Promise<Metadata> {
  const { site, t } = await shop();
  return { title: `${t.confirmationTitle} | ${site.name}`, robots: { index: false, follow: false } };
}

export default async function ConfirmationPage({ params, searchParams }: Props) {
  const [{ sessionId }, query, { t, locale }] = await Promise.all([params, searchParams, shop()]);
  const [{ session }, site] = await Promise.all([checkoutSession(sessionId), fetchSite()]);
  if (session.status === 'open') redirect(`/checkout/${session.id}`);
  if (session.status === 'expired') {
    return <SessionExpired t={t} />;
  }
  const market = site.markets.find((m) => m.id === session.market);
  const summary = <OrderSummary session={session} locale={locale} taxInclusive={market?.taxInclusive ?? true} t={t} />;
  if (session.status === 'payment_pending' || !session.order) {
    // Back from the provider before its webhook arrived, or the shopper left its page.
    return (
      <>
        <div className="page-head">
          <h1>{t.awaitingTitle}</h1>
          <p role="status">{query.payment === 'cancelled' ? t.paymentCancelledText : t.awaitingText}</p>
        </div>
        <div className="two-col">
          <section className="panel" aria-labelledby="payment-title">
            <h2 id="payment-title">{t.payment}</h2>
            <p className="mb-0">
              <ShopLink fullLoad={false} className="btn btn-primary" href={`/checkout/${session.id}/pay`}>
                {t.continuePayment}
              </ShopLink>{' '}
              <ShopLink fullLoad={false} className="btn btn-secondary" href={`/checkout/${session.id}/confirmation`}>
                {t.refresh}
              </ShopLink>
            </p>
          </section>
          {summary}
        </div>
      </>
    );
  }
  return (
    <>
      <div className="page-head">
        <h1>{t.confirmationTitle}</h1>
        <p>{t.confirmationText}</p>
        {query.demo === '1' ? (
          <p className="notice" data-testid="demo-payment">
            {t.confirmationDemo}
          </p>
        ) : null}
      </div>
      <div className="two-col">
        <div>
          <section className="panel" aria-labelledby="reference-title">
            <h2 id="reference-title">{t.orderNumber}</h2>
            <p className="order-reference">
              <strong className="reference" data-testid="order-number">
                {session.order.number}
              </strong>
            </p>
            <p className="muted m-0">{t.quoteReference}</p>
          </section>
          {session.shippingAddress ? (
            <section className="panel mt-16" aria-labelledby="address-title">
              <h2 id="address-title">{t.deliveryTo}</h2>
              <AddressLines address={session.shippingAddress} locale={locale} />
              {session.deliveryOption ? (
                <p className="mb-0">
                  <span className="muted">{t.deliveryMethod}:</span> {session.deliveryOption.title} ({session.deliveryOption.carrier})
                </p>
              ) : null}
            </section>
          ) : null}
          <p className="mt-16">
            <ShopLink fullLoad={false} className="btn btn-secondary" href="/">
              {t.continueShopping}
            </ShopLink>
          </p>
        </div>
        {summary}
      </div>
    </>
  );
}

/**
 * The address as the shopper gave it, one line each, the country named in their language;
 * the town line in the country's order ("New York, NY 10118" in the US, "111 22 Stockholm" here).
 */
function AddressLines({ address, locale }: { address: Address; locale: string }) {
  const town =
    address.country === 'US'
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
      {lines.map((line, i) => (
        <span key={i}>{line}</span>
      ))}
    </address>
  );
}
