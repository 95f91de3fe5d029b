import type { StoredAddress, StoredDeliveryOption } from '@/db/schema';
import type { SiteContext } from '@/lib/platform/auth/credentials';
import type { MarketInfo } from '../markets';
import { toMoney } from '../money';
import { computeTotals } from './pricing';
import type { LineRow, LoadedSession, SessionChanges } from './session-storage';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The totals columns for these lines and delivery option, taxed at the rate of the country
 * the session ships to (its market's, unless that country has its own).
 */
export function totalsFor(
  lines: readonly LineRow[],
  delivery: StoredDeliveryOption | null,
  market: MarketInfo,
  country: string,
): SessionChanges {
  const rule = { taxInclusive: market.taxInclusive, taxRateBp: market.countryTaxRateBp[country] ?? market.taxRateBp };
  const totals = computeTotals(
    lines.map((l) => l.total),
    delivery ? delivery.amount : null,
    rule,
  );
  return { subtotal: totals.subtotal, shipping: totals.shipping, tax: totals.tax, total: totals.total };
}

/** The session's country: its shipping address's, else the one chosen with change-country, else its market's first. */
export function sessionCountry(session: Pick<LoadedSession, 'shippingAddress' | 'country'>, market: MarketInfo): string {
  const country = session.shippingAddress?.country ?? session.country;
  return country && market.countries.includes(country) ? country : (market.countries[0] ?? '');
}

function address(a: StoredAddress | null) {
  if (!a) return null;
  return {
    firstName: a.firstName,
    lastName: a.lastName,
    line1: a.line1,
    ...(a.line2 ? { line2: a.line2 } : {}),
    postalCode: a.postalCode,
    city: a.city,
    ...(a.region ? { region: a.region } : {}),
    country: a.country,
  };
}

export function deliveryView(option: StoredDeliveryOption, currency: string) {
  return {
    id: option.id,
    kind: option.kind,
    title: option.title,
    carrier: option.carrier,
    price: toMoney(option.amount, currency),
    estimatedDays: { min: option.minDays, max: option.maxDays },
    pickupPointId: option.pickupPointId ?? null,
  };
}

/** The public CheckoutSession (with the order it became, when given); the route parses it with the contract schema. */
export function toCheckoutSession(session: LoadedSession, site: SiteContext['site'], order?: { number: string; createdAt: number } | null) {
  const money = (minor: number) => toMoney(minor, session.currency);
  return {
    id: session.id,
    status: session.status,
    market: session.marketId,
    locale: session.locale,
    currency: session.currency,
    email: session.email,
    phone: session.phone,
    lines: session.lines.map((l) => ({
      variantId: l.variantId,
      productHandle: l.productHandle,
      title: l.title,
      quantity: l.quantity,
      unitPrice: money(l.unitPrice),
      total: money(l.total),
    })),
    totals: {
      subtotal: money(session.subtotal),
      shipping: session.shipping === null ? null : money(session.shipping),
      tax: money(session.tax),
      total: money(session.total),
    },
    shippingAddress: address(session.shippingAddress),
    billingAddress: address(session.billingAddress),
    deliveryOption: session.deliveryOption ? deliveryView(session.deliveryOption, session.currency) : null,
    checkoutUrl: `${site.checkoutBaseUrl.replace(/\/+$/, '')}/${session.id}`,
    ...(order ? { order: { number: order.number, createdAt: iso(order.createdAt) } } : {}),
    expiresAt: iso(session.expiresAt),
    createdAt: iso(session.createdAt),
    updatedAt: iso(session.updatedAt),
  };
}
