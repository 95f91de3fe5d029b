import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import type { ProductNarrowingQuery } from '@/lib/contract/operations/reads';
import { DomainError } from '@/lib/platform/errors';
import type { MarketChoice } from '../markets';
import { minorDigits, parseMinorUnits } from '../money';
import { optionGroupsOf, type IndexFilter, type ListIndex } from './list-index';
import { withinMatches } from './search';

/**
 * The products list's narrowing filters (available, price range, options, collection) and
 * their facets. Each filter is a property of the product: it has a variant priced in the
 * market that is purchasable, priced in the range, or has the option value.
 */
export type Narrowing = Omit<ProductNarrowingQuery, 'facets'>;
/** Narrows a list to the products named; each filter given must match (AND). */
export type ProductFilter = { handles?: readonly string[]; variantIds?: readonly string[] };

/** A decimal string in the market's currency → integer minor units (a 422 if finer than the currency). */
export function toMinor(amount: string, currency: string, field: string): number {
  const minor = parseMinorUnits(amount, currency);
  if (minor === null) {
    const digits = minorDigits(currency);
    throw new DomainError('validation_failed', `${field} must be an amount in ${currency} with at most ${digits} decimals.`, {
      errors: [
        {
          pointer: `#/query/${field}`,
          code: 'invalid_amount',
          detail: `Give a decimal amount with at most ${digits} decimals for ${currency}.`,
        },
      ],
    });
  }
  return minor;
}

/** Option filters grouped by name: `Color:Sand`, `Color:Sage` → Color → [Sand, Sage]. */
export function optionGroups(options: readonly string[] | undefined): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const option of options ?? []) {
    const at = option.indexOf(':');
    const name = option.slice(0, at);
    const values = groups.get(name) ?? [];
    if (!values.includes(option.slice(at + 1))) values.push(option.slice(at + 1));
    groups.set(name, values);
  }
  return groups;
}

type Range = { min?: number; max?: number };

function priceRange(filter: Narrowing, choice: MarketChoice): Range | undefined {
  if (filter.priceMin === undefined && filter.priceMax === undefined) return undefined;
  const currency = choice.market.currency;
  const range = {
    min: filter.priceMin === undefined ? undefined : toMinor(filter.priceMin, currency, 'priceMin'),
    max: filter.priceMax === undefined ? undefined : toMinor(filter.priceMax, currency, 'priceMax'),
  };
  if (range.min !== undefined && range.max !== undefined && range.min > range.max) {
    throw new DomainError('validation_failed', 'priceMin is above priceMax.', {
      errors: [{ pointer: '#/query/priceMin', code: 'invalid_range', detail: 'Give a priceMin no higher than priceMax.' }],
    });
  }
  return range;
}

/**
 * The filters over the list index (validates the amounts: 422s), and the products in scope:
 * those the handles, variants, collection and search's `matches` name (all when none does).
 */
export async function indexFilterOf(
  database: DbOrTx,
  site: { id: string },
  choice: MarketChoice,
  index: ListIndex,
  request: Narrowing & ProductFilter,
  matches?: number[],
): Promise<IndexFilter> {
  const range = priceRange(request, choice);
  let scope: Uint8Array | null = null;
  const narrow = (positions: Iterable<number | undefined>) => {
    const mine = new Uint8Array(index.size);
    for (const p of positions) if (p !== undefined && (scope === null || scope[p] === 1)) mine[p] = 1;
    scope = mine;
  };
  if (request.handles) narrow(request.handles.map((h) => index.byHandle.get(h)));
  if (request.variantIds) {
    const owners = await database.all<{ product_id: string }>(sql`select product_id from product_variants
      where site_id = ${site.id} and id in (select value from json_each(${JSON.stringify(request.variantIds)}))`);
    narrow(owners.map((r) => index.byId.get(r.product_id)));
  }
  if (request.collection !== undefined) {
    const members = await database.all<{
      product_id: string;
    }>(sql`select cp.product_id from collection_products cp inner join collections c on c.id = cp.collection_id
      where c.site_id = ${site.id} and c.handle = ${request.collection} and c.status = 'published'`);
    narrow(members.map((r) => index.byId.get(r.product_id)));
  }
  if (matches) scope = withinMatches(index, scope, matches);
  return {
    scope,
    available: request.available === 'true',
    range: range ? { min: range.min ?? 0, max: range.max ?? Number.MAX_SAFE_INTEGER } : undefined,
    groups: optionGroupsOf(index, optionGroups(request.option)),
  };
}

/** Checks the filters' amounts (422s) without reading anything. */
export function checkNarrowing(choice: MarketChoice, filter: Narrowing): void {
  priceRange(filter, choice);
}

export function hasNarrowing(filter: Narrowing): boolean {
  return (
    filter.available !== undefined ||
    filter.priceMin !== undefined ||
    filter.priceMax !== undefined ||
    filter.option !== undefined ||
    filter.collection !== undefined
  );
}

/** The filters as part of a cache key (options sorted: the same set is the same key). */
export function narrowingKey(filter: Narrowing & { facets?: 'true' }): string {
  if (!hasNarrowing(filter) && !filter.facets) return '';
  return JSON.stringify([
    filter.available ?? null,
    filter.priceMin ?? null,
    filter.priceMax ?? null,
    [...(filter.option ?? [])].sort(),
    filter.collection ?? null,
    filter.facets ?? null,
  ]);
}
