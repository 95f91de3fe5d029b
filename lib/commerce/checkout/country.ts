import type { Database } from '@/db/client';
import { canSell } from '../availability';
import type { SiteContext } from '../credentials';
import { DomainError } from '../errors';
import { marketForCountry } from '../markets';
import { toMoney } from '../money';
import { readCatalogVariants } from './catalog-lines';
import { lineTotal } from './pricing';
import type { Clock } from './sessions';
import { mutateSession, type LineRow } from './store';
import { totalsFor } from './view';

export type CountryChangeWarning = { variantId: string; code: 'not_sold_in_market' | 'insufficient_stock'; detail: string };

/**
 * Moves an open session to the market serving `country`: every line is re-priced from
 * that market's prices (no currency conversion), lines that cannot be sold there are
 * removed with a warning each, the delivery option is cleared (rates and pickup points
 * are per market and country), and addresses that no longer fit are cleared: the
 * shipping address unless it is in `country` (the shopper just said where it goes), the
 * billing address unless it is in the new market. The locale stays if the new market
 * offers it, else it becomes the market's default; line titles follow the locale.
 */
export async function changeCheckoutCountry(database: Database, site: SiteContext['site'], id: string, requested: string, clock: Clock = {}) {
  const now = clock.now ?? Date.now();
  const country = requested.toUpperCase();
  const { session, result } = await mutateSession(database, site.id, id, { now }, async (before, tx) => {
    // Looked up once the session is known to exist: another Site's id is 404 whatever the body says.
    const market = await marketForCountry(tx, site, country);
    if (!market) {
      throw new DomainError('unsupported_country', `No market of this Site serves ${country}.`, {
        errors: [{ pointer: '/country', code: 'unsupported_country', detail: 'Not served by any market.' }],
      });
    }
    const locale = market.locales.includes(before.locale) ? before.locale : market.defaultLocale;
    const catalog = await readCatalogVariants(tx, site, market.id, locale, before.lines.map((l) => l.variantId));
    const warnings: CountryChangeWarning[] = [];
    const lines: LineRow[] = [];
    for (const line of before.lines) {
      const variant = catalog.get(line.variantId);
      if (!variant || variant.unitPrice === null) {
        warnings.push({ variantId: line.variantId, code: 'not_sold_in_market', detail: `"${line.title}" is not sold in ${country}; it was removed.` });
      } else if (!canSell(variant.level, line.quantity)) {
        warnings.push({ variantId: line.variantId, code: 'insufficient_stock', detail: `"${variant.title}" is not in stock for ${line.quantity}; it was removed.` });
      } else {
        lines.push({
          position: lines.length,
          variantId: line.variantId,
          productHandle: variant.productHandle,
          title: variant.title,
          quantity: line.quantity,
          unitPrice: variant.unitPrice,
          total: lineTotal(variant.unitPrice, line.quantity),
        });
      }
    }
    const changes = {
      marketId: market.id,
      currency: market.currency,
      country,
      locale,
      deliveryOption: null,
      shippingAddress: before.shippingAddress?.country === country ? before.shippingAddress : null,
      billingAddress: before.billingAddress && market.countries.includes(before.billingAddress.country) ? before.billingAddress : null,
      ...totalsFor(lines, null, market),
    };
    return { changes, lines, result: { previousTotal: toMoney(before.total, before.currency), warnings } };
  });
  return { session, quote: { previousTotal: result.previousTotal, total: toMoney(session.total, session.currency), warnings: result.warnings } };
}
