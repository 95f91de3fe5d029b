import { writeBatch, type Statement } from '@/db';
import type { StoredAddress } from '@/db/schema';
import type { Database, DbOrTx } from '@/db/client';
import type { CreateCheckoutSessionBody, UpdateCheckoutSessionBody } from '@/lib/contract/checkout';
import type { SiteContext } from '@/lib/platform/auth/credentials';
import { DomainError } from '@/lib/platform/errors';
import { newTimeOrderedId } from '@/lib/platform/ids';
import { chooseMarket, loadMarkets, type MarketInfo } from '../markets';
import { priceRequestedLines } from './requested-lines';
import { findSession, loadSession, sessionStatements, mutateSession, type LoadedSession, type SessionChanges } from './session-storage';
import { sessionCountry, totalsFor } from './view';

type Site = SiteContext['site'];
export type Clock = { now?: number };

/** The market a session lives in (it may have been removed since: then the session cannot be priced). */
export async function sessionMarket(database: DbOrTx, site: Site, marketId: string): Promise<MarketInfo> {
  const market = (await loadMarkets(database, site)).find((m) => m.id === marketId);
  if (!market) throw new DomainError('session_not_open', "The checkout session's market is no longer offered.");
  return market;
}

/**
 * An open session from catalog prices of the session's market (lines and bundles: see
 * priceRequestedLines for what is refused and how bundles are priced), and the statements
 * that create it — not yet run, so the caller commits them in one batch with what else
 * must be atomic with them (the API stores its idempotent answer in the same batch).
 */
export async function planCheckoutSession(
  database: Database,
  context: Pick<SiteContext, 'site' | 'credentialId'>,
  input: CreateCheckoutSessionBody,
  options: { ttlSeconds: number } & Clock,
): Promise<{ session: LoadedSession; write: Statement[] }> {
  const { site } = context;
  const now = options.now ?? Date.now();
  const { market, locale } = await chooseMarket(database, site, input, 'body');
  const lines = await priceRequestedLines(database, site, market, locale, input);
  const totals = totalsFor(lines, null, market, sessionCountry({ country: null, shippingAddress: null }, market));
  const row = {
    id: newTimeOrderedId('cs', now),
    siteId: site.id,
    credentialId: context.credentialId,
    status: 'open',
    marketId: market.id,
    country: null,
    locale,
    currency: market.currency,
    email: input.email ?? null,
    phone: null,
    shippingAddress: null,
    billingAddress: null,
    deliveryOption: null,
    payment: null,
    subtotal: totals.subtotal!,
    shipping: null,
    tax: totals.tax!,
    total: totals.total!,
    revision: 1,
    expiresAt: now + options.ttlSeconds * 1000,
    createdAt: now,
    updatedAt: now,
  } satisfies Omit<LoadedSession, 'lines'>;
  return { session: { ...row, lines }, write: sessionStatements(database, row, lines) };
}

/** planCheckoutSession, committed. */
export async function createCheckoutSession(...args: Parameters<typeof planCheckoutSession>): Promise<LoadedSession> {
  const { session, write } = await planCheckoutSession(...args);
  await writeBatch(args[0], write);
  return session;
}

/** A session of the Site as it is now (expiry applied). */
export async function getCheckoutSession(database: Database, site: Site, id: string, clock: Clock = {}): Promise<LoadedSession> {
  return loadSession(database, site.id, id, clock.now ?? Date.now());
}

/**
 * PATCH: given fields replace the stored ones (null clears). Addresses must be in the
 * session's market. When the shipping country changes, a selected pickup point (which is
 * in the old country) is dropped; home-delivery rates are per market and stay.
 */
export async function updateCheckoutSession(
  database: Database,
  site: Site,
  id: string,
  input: UpdateCheckoutSessionBody,
  options: { ifMatch?: string | null } & Clock,
): Promise<LoadedSession> {
  const now = options.now ?? Date.now();
  const { session } = await mutateSession(database, site.id, id, { now, ifMatch: options.ifMatch }, async (before, tx) => {
    const market = await sessionMarket(tx, site, before.marketId);
    const outside = (['shippingAddress', 'billingAddress'] as const).filter((field) => {
      const a = input[field];
      return a && !market.countries.includes(a.country);
    });
    if (outside.length > 0) {
      throw new DomainError(
        'country_not_in_market',
        `Addresses must be in the session's market "${market.id}" (${market.countries.join(', ')}); use change-country to move the session.`,
        {
          errors: outside.map((field) => ({
            pointer: `/${field}/country`,
            code: 'country_not_in_market',
            detail: `Not one of ${market.countries.join(', ')}.`,
          })),
        },
      );
    }
    const changes: SessionChanges = {};
    if (input.email !== undefined) changes.email = input.email;
    if (input.phone !== undefined) changes.phone = input.phone;
    if (input.shippingAddress !== undefined) changes.shippingAddress = input.shippingAddress as StoredAddress | null;
    if (input.billingAddress !== undefined) changes.billingAddress = input.billingAddress as StoredAddress | null;
    const after = {
      country: before.country,
      shippingAddress: changes.shippingAddress === undefined ? before.shippingAddress : changes.shippingAddress,
    };
    const country = sessionCountry(after, market);
    if (country !== sessionCountry(before, market)) {
      // Another country: its tax rate, and a pickup point of the old one no longer serves.
      const delivery = before.deliveryOption?.kind === 'pickup' ? null : before.deliveryOption;
      Object.assign(
        changes,
        delivery === before.deliveryOption ? {} : { deliveryOption: null },
        totalsFor(before.lines, delivery, market, country),
      );
    }
    return { changes, result: null };
  });
  return session;
}

export { findSession };
