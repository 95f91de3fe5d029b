import type { Metadata } from 'next';
import type { CheckoutSession } from '@/lib/contract/checkout';
import { redirect } from 'next/navigation';
import { deliveryOptions, fetchSite } from '@/lib/site-client';
import { ContactForm } from '../../_components/checkout/contact-form';
import { DeliveryForm, type DeliveryOptionView } from '../../_components/checkout/delivery-form';
import { OrderSummary } from '../../_components/checkout/order-summary';
import { PaymentForm } from '../../_components/checkout/payment-form';
import { checkoutSession } from '../../_lib/checkout';
import { formatCountry, formatMoney } from '../../_lib/format';
import { fill, type Dictionary } from '../../_lib/i18n';
import { checkoutStrings } from '../../_lib/i18n/islands';
import { shop } from '../../_lib/shop';
import { SessionExpired } from '../../_components/checkout/session-expired';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ sessionId: string }> };

export async function generateMetadata(): Promise<Metadata> {
  const { site, t } = await shop();
  return { title: `${t.secureCheckout} | ${site.name}`, robots: { index: false, follow: false } };
}

export default async function CheckoutPage({ params }: Props) {
  const [{ sessionId }, { t, locale }] = await Promise.all([params, shop()]);
  const [{ session, etag }, site] = await Promise.all([checkoutSession(sessionId), fetchSite()]);
  if (session.status === 'payment_pending') redirect(`/checkout/${session.id}/pay`);
  if (session.status === 'completed') redirect(`/checkout/${session.id}/confirmation`);

  if (session.status === 'expired') {
    return <SessionExpired t={t} />;
  }

  const market = site.markets.find((m) => m.id === session.market);
  const countries = site.markets
    .flatMap((m) => m.countries)
    .filter((c, i, all) => all.indexOf(c) === i)
    .map((code) => ({ code, label: formatCountry(code, locale) }))
    .sort((a, b) => a.label.localeCompare(b.label, locale));
  const country = session.shippingAddress?.country ?? market?.countries[0] ?? countries[0]?.code ?? '';
  const hasAddress = Boolean(session.email && session.shippingAddress);
  const ready = hasAddress && Boolean(session.deliveryOption) && session.lines.length > 0;

  return (
    <>
      <div className="page-head">
        <h1>{t.secureCheckout}</h1>
      </div>
      {/* One grid, in the order a phone shows it: the summary comes before the payment step
          (what is being paid for, then paying). Wide screens put the summary beside the steps. */}
      <div className="checkout-grid">
        <section className={`panel step checkout-contact${hasAddress ? ' step-done' : ''}`} aria-labelledby="step-contact">
          <h2 id="step-contact">
            <span className="step-number" aria-hidden="true">
              1
            </span>
            {t.contact} · {t.shippingAddress}
          </h2>
          <ContactForm
            sessionId={session.id}
            etag={etag}
            email={session.email}
            phone={session.phone}
            address={session.shippingAddress}
            country={country}
            countries={countries}
            t={checkoutStrings(t)}
          />
        </section>
        <section className={`panel step checkout-delivery${session.deliveryOption ? ' step-done' : ''}`} aria-labelledby="step-delivery">
          <h2 id="step-delivery">
            <span className="step-number" aria-hidden="true">
              2
            </span>
            {t.delivery}
          </h2>
          {session.shippingAddress ? (
            // Rendered in place, not streamed: without JavaScript a Suspense fallback is never replaced.
            <DeliveryStep session={session} locale={locale} t={t} />
          ) : (
            <p className="muted">{t.deliveryHint}</p>
          )}
        </section>
        <div className="checkout-summary">
          <OrderSummary session={session} locale={locale} taxInclusive={market?.taxInclusive ?? true} t={t} />
          {isThisPage(session.checkoutUrl, session.id) ? null : (
            <p className="muted mt-16 text-90">
              {t.hostedCheckout}{' '}
              <a href={session.checkoutUrl} rel="noopener">
                {t.hostedCheckoutLink}
              </a>
            </p>
          )}
        </div>
        <section className="panel step checkout-payment" aria-labelledby="step-payment">
          <h2 id="step-payment">
            <span className="step-number" aria-hidden="true">
              3
            </span>
            {t.payment}
          </h2>
          <PaymentForm sessionId={session.id} ready={ready} t={checkoutStrings(t)} />
        </section>
      </div>
    </>
  );
}

/** Home delivery and pickup points for the saved address (listing does not change the session). */
async function DeliveryStep({ session, locale, t }: { session: CheckoutSession; locale: string; t: Dictionary }) {
  const delivery = await deliveryOptions(session.id).catch(() => null);
  if (!delivery) return <p className="muted">{t.tryAgainLater}</p>;
  const options: DeliveryOptionView[] = delivery.options.map((o) => ({
    id: o.id,
    kind: o.kind,
    title: o.pickupPoint?.name ?? o.title,
    carrier: o.carrier,
    price: formatMoney(o.price, locale),
    days: fill(t.days, { min: o.estimatedDays.min, max: o.estimatedDays.max }),
    detail: o.pickupPoint ? `${o.pickupPoint.address.line1}, ${o.pickupPoint.address.postalCode} ${o.pickupPoint.address.city}` : null,
  }));
  if (options.length === 0) return <p className="muted">{t.noDeliveryOptions}</p>;
  return (
    <DeliveryForm
      sessionId={session.id}
      options={options}
      selected={delivery.selected ?? session.deliveryOption?.id ?? null}
      t={checkoutStrings(t)}
    />
  );
}

/**
 * Whether the session's hosted checkout is this very page: a Site whose checkout base URL is
 * this shop's own `/checkout` (the demo's). The path decides; the API makes the link absolute
 * against its own origin, which need not be the one the shopper sees.
 */
function isThisPage(checkoutUrl: string, sessionId: string): boolean {
  try {
    return new URL(checkoutUrl, 'http://localhost').pathname === `/checkout/${sessionId}`;
  } catch {
    return false;
  }
}
