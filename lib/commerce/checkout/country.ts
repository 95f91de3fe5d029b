import type { Database } from '@/db/client';
import { canSell } from '../availability';
import type { SiteContext } from '@/lib/platform/auth/credentials';
import { DomainError } from '@/lib/platform/errors';
import { marketForCountry } from '../markets';
import { toMoney } from '../money';
import { bundleLines, bundleVariants, readCatalogBundles, variantLine } from './bundles';
import { readCatalogVariants } from './catalog-lines';
import type { Clock } from './sessions';
import { mutateSession, type LineRow } from './session-storage';
import { totalsFor } from './view';

export type CountryChangeWarning = { variantId: string; code: 'not_sold_in_market' | 'insufficient_stock'; detail: string };

/**
 * Moves an open session to the market serving `country`: every line is re-priced from
 * that market's prices (no currency conversion), lines that cannot be sold there are
 * removed with a warning each, the delivery option is cleared (rates and pickup points
 * are per market and country), and addresses that no longer fit are cleared: the
 * shipping address unless it is in `country` (the shopper just said where it goes), the
 * billing address unless it is in the new market. The locale stays if the new market
 * offers it, else it becomes the market's default; line titles follow the locale. A
 * bundle's lines are re-expanded with the bundle's price in the new market, or all
 * removed (a warning each) when the bundle or any of its items is not sold there.
 */
export async function changeCheckoutCountry(
  database: Database,
  site: SiteContext['site'],
  id: string,
  requested: string,
  clock: Clock = {},
) {
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
    // The shopper's language where the new market has it (en-SE → en-DE), else the market's own.
    const language = before.locale.split('-')[0];
    const locale = market.locales.includes(before.locale)
      ? before.locale
      : (market.locales.find((l) => l.split('-')[0] === language) ?? market.defaultLocale);
    const bundleIds = [...new Set(before.lines.flatMap((l) => (l.bundleId ? [l.bundleId] : [])))];
    const bundles = await readCatalogBundles(tx, site, market.id, locale, bundleIds);
    const itemIds = [...bundles.values()].flatMap((b) => b.items.map((i) => i.variantId));
    const catalog = await readCatalogVariants(tx, site, market.id, locale, [...before.lines.map((l) => l.variantId), ...itemIds]);
    const warnings: CountryChangeWarning[] = [];
    const lines: LineRow[] = [];
    const drop = (gone: LineRow[], code: CountryChangeWarning['code'], why: string) =>
      gone.forEach((l) => warnings.push({ variantId: l.variantId, code, detail: `"${l.title}" ${why}; it was removed.` }));
    for (const line of before.lines) {
      if (line.bundleId) {
        // A bundle's lines move together, re-expanded with the bundle's price in the new market.
        const group = before.lines.filter((l) => l.bundleId === line.bundleId);
        if (group[0] !== line) continue;
        const bundle = bundles.get(line.bundleId);
        const variants = bundle ? bundleVariants(bundle, catalog) : null;
        const quantity = line.bundleQuantity ?? 1;
        if (!bundle || !variants) drop(group, 'not_sold_in_market', `is not sold as this bundle in ${country}`);
        else if (!bundle.items.every((item, k) => canSell(variants[k]!.level, item.quantity * quantity)))
          drop(group, 'insufficient_stock', `is not in stock for this bundle`);
        else lines.push(...bundleLines(bundle, variants, quantity, lines.length));
        continue;
      }
      const variant = catalog.get(line.variantId);
      if (!variant || variant.unitPrice === null) {
        warnings.push({
          variantId: line.variantId,
          code: 'not_sold_in_market',
          detail: `"${line.title}" is not sold in ${country}; it was removed.`,
        });
      } else if (!canSell(variant.level, line.quantity)) {
        warnings.push({
          variantId: line.variantId,
          code: 'insufficient_stock',
          detail: `"${variant.title}" is not in stock for ${line.quantity}; it was removed.`,
        });
      } else {
        lines.push(variantLine(line.variantId, { ...variant, unitPrice: variant.unitPrice }, line.quantity, lines.length));
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
      ...totalsFor(lines, null, market, country),
    };
    return { changes, lines, result: { previousTotal: toMoney(before.total, before.currency), warnings } };
  });
  return {
    session,
    quote: { previousTotal: result.previousTotal, total: toMoney(session.total, session.currency), warnings: result.warnings },
  };
}
