import { and, asc, eq, sql } from 'drizzle-orm';
import { pickupPoints, shippingRates, type StoredDeliveryOption } from '@/db/schema';
import type { Database, DbOrTx } from '@/db/client';
import type { SiteContext } from '@/lib/platform/auth/credentials';
import { DomainError } from '@/lib/platform/errors';
import type { MarketInfo } from '../markets';
import { toMoney } from '../money';
import { normalisePostalCode, postalCodeProblem, postalNumber } from '@/lib/contract/address';
import { sessionMarket, type Clock } from './sessions';
import { loadSession, mutateSession, type LoadedSession } from './session-storage';
import { sessionCountry, totalsFor } from './view';

type Site = SiteContext['site'];
export const PICKUP_POINTS_LISTED = 5;
const PICKUP_PREFIX = 'pickup_';

type PickupRow = typeof pickupPoints.$inferSelect;
type RateRow = typeof shippingRates.$inferSelect;

/** What an option is, independent of how it is shown: the stored form. */
type Candidate = StoredDeliveryOption & { point?: PickupRow };

async function ratesOf(database: DbOrTx, site: Site, marketId: string): Promise<RateRow[]> {
  return database
    .select()
    .from(shippingRates)
    .where(and(eq(shippingRates.siteId, site.id), eq(shippingRates.marketId, marketId)))
    .orderBy(asc(shippingRates.position));
}

function homeDelivery(rates: RateRow[]): Candidate[] {
  return rates
    .filter((r) => r.kind === 'delivery')
    .map((r) => ({
      id: r.id,
      kind: 'delivery',
      title: r.title,
      carrier: r.carrier,
      amount: r.amount,
      minDays: r.minDays,
      maxDays: r.maxDays,
    }));
}

/** A pickup point priced with the market's pickup rate (the point's own carrier delivers it). */
function pickupOption(rate: RateRow, point: PickupRow): Candidate {
  return {
    id: `${PICKUP_PREFIX}${point.id}`,
    kind: 'pickup',
    title: `${rate.title}: ${point.name}`,
    carrier: point.carrier,
    amount: rate.amount,
    minDays: rate.minDays,
    maxDays: rate.maxDays,
    pickupPointId: point.id,
    point,
  };
}

/** The pickup points of a country nearest to a postal code (by numeric closeness of the codes). */
async function nearestPickupPoints(database: DbOrTx, country: string, postalCode: string): Promise<PickupRow[]> {
  const target = postalNumber(postalCode);
  if (target === null) return [];
  const digits = sql`cast(replace(replace(substr(${pickupPoints.postalCode}, 1, 6), ' ', ''), '-', '') as integer)`;
  return database
    .select()
    .from(pickupPoints)
    .where(eq(pickupPoints.country, country))
    .orderBy(sql`abs(${digits} - ${target})`, asc(pickupPoints.id))
    .limit(PICKUP_POINTS_LISTED);
}

function storedOption({ id, kind, title, carrier, amount, minDays, maxDays, pickupPointId }: Candidate): StoredDeliveryOption {
  return { id, kind, title, carrier, amount, minDays, maxDays, ...(pickupPointId ? { pickupPointId } : {}) };
}

function optionView(option: Candidate, currency: string) {
  return {
    id: option.id,
    kind: option.kind,
    title: option.title,
    carrier: option.carrier,
    price: toMoney(option.amount, currency),
    estimatedDays: { min: option.minDays, max: option.maxDays },
    ...(option.point
      ? {
          pickupPoint: {
            id: option.point.id,
            name: option.point.name,
            address: {
              line1: option.point.line1,
              postalCode: option.point.postalCode,
              city: option.point.city,
              country: option.point.country,
            },
            openingHours: option.point.openingHours,
          },
        }
      : {}),
  };
}

/** Resolves a `select`ed id to an option of the session's market and country, whether or not it was listed. */
async function resolveOption(database: DbOrTx, rates: RateRow[], country: string, id: string): Promise<Candidate | null> {
  if (id.startsWith(PICKUP_PREFIX)) {
    const rate = rates.find((r) => r.kind === 'pickup');
    const [point] = await database
      .select()
      .from(pickupPoints)
      .where(and(eq(pickupPoints.id, id.slice(PICKUP_PREFIX.length)), eq(pickupPoints.country, country)));
    return rate && point ? pickupOption(rate, point) : null;
  }
  return homeDelivery(rates).find((o) => o.id === id) ?? null;
}

function unknownOption(id: string): DomainError {
  return new DomainError('unknown_delivery_option', 'That delivery option is not offered for this session.', {
    errors: [{ pointer: '/select', code: 'unknown_delivery_option', detail: `"${id.slice(0, 64)}" is not an option here.` }],
  });
}

/**
 * Home delivery (every speed of the session's market) plus up to five pickup points of
 * the session's country nearest the given postal code, else the shipping address's.
 * Without either, no pickup points are listed (there is no "near" to sort by).
 * With `select`, stores that option on an open session and re-totals it.
 */
export async function deliveryOptions(
  database: Database,
  site: Site,
  id: string,
  input: { postalCode?: string; select?: string },
  clock: Clock = {},
) {
  const now = clock.now ?? Date.now();
  let session: LoadedSession = await loadSession(database, site.id, id, now);
  const market: MarketInfo = await sessionMarket(database, site, session.marketId);
  const country = sessionCountry(session, market);
  let postalCode = session.shippingAddress?.country === country ? session.shippingAddress.postalCode : undefined;
  if (input.postalCode !== undefined) {
    const problem = postalCodeProblem(country, input.postalCode);
    if (problem) {
      throw new DomainError('validation_failed', 'The request body is not valid.', {
        errors: [{ pointer: '/postalCode', code: 'invalid_postal_code', detail: problem }],
      });
    }
    postalCode = normalisePostalCode(country, input.postalCode);
  }

  if (input.select !== undefined) {
    const selected = input.select;
    ({ session } = await mutateSession(database, site.id, id, { now }, async (before, tx) => {
      const beforeMarket = await sessionMarket(tx, site, before.marketId);
      const option = await resolveOption(tx, await ratesOf(tx, site, before.marketId), sessionCountry(before, beforeMarket), selected);
      if (!option) throw unknownOption(selected);
      const stored = storedOption(option);
      return {
        changes: { deliveryOption: stored, ...totalsFor(before.lines, stored, beforeMarket, sessionCountry(before, beforeMarket)) },
        result: null,
      };
    }));
  }

  const rates = await ratesOf(database, site, session.marketId);
  const pickupRate = rates.find((r) => r.kind === 'pickup');
  const points = pickupRate && postalCode ? await nearestPickupPoints(database, country, postalCode) : [];
  const options = [...homeDelivery(rates), ...points.map((p) => pickupOption(pickupRate!, p))];
  return {
    options: options.map((o) => optionView(o, session.currency)),
    selected: session.deliveryOption?.id ?? null,
    session,
  };
}
