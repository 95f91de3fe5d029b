import type { CheckoutSession } from '@/lib/contract/checkout';
import { formatMoney } from '../../_lib/format';
import type { Dictionary } from '../../_lib/i18n';

/** Every amount here is the API's quote; nothing is added up in the shop. */
export function OrderSummary({
  session,
  locale,
  taxInclusive,
  t,
}: {
  session: CheckoutSession;
  locale: string;
  taxInclusive: boolean;
  t: Dictionary;
}) {
  const money = (m: Parameters<typeof formatMoney>[0]) => formatMoney(m, locale);
  return (
    <aside className="panel summary" aria-labelledby="summary-title">
      <h2 id="summary-title">{t.orderSummary}</h2>
      <ul className="summary-lines">
        {/* A variant can appear twice: on its own and as part of a bundle. */}
        {session.lines.map((line, i) => (
          <li key={`${i}:${line.variantId}`}>
            <span>
              {line.quantity} × {line.title}
            </span>
            <span>{money(line.total)}</span>
          </li>
        ))}
      </ul>
      <dl>
        <dt>{t.subtotal}</dt>
        <dd>{money(session.totals.subtotal)}</dd>
        <dt>{t.shipping}</dt>
        <dd>{session.totals.shipping ? money(session.totals.shipping) : <span className="muted">{t.shippingLater}</span>}</dd>
        <dt>{taxInclusive ? t.taxIncluded : t.tax}</dt>
        <dd>{money(session.totals.tax)}</dd>
        <dt className="grand">{t.total}</dt>
        <dd className="grand" data-testid="checkout-total">
          {money(session.totals.total)}
        </dd>
      </dl>
    </aside>
  );
}
