import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/db/client';
import type { ProductFacets } from '@/lib/contract/catalog';
import type { ProductNarrowingQuery } from '@/lib/contract/operations/reads';
import { DomainError } from '@/lib/platform/errors';
import type { MarketChoice } from '../markets';
import { minorDigits, parseMinorUnits, toMoney } from '../money';
import { chosenOptionTexts, displayedNameSql, displayedValueSql, displayedVariantOptions, type OptionTexts } from './option-texts';
import { productsAmong } from './search';

/**
 * The products list's narrowing filters (available, price range, options, collection) and
 * their facets. Each filter is a property of the product: it has a variant priced in the
 * market that is purchasable, priced in the range, or has the option value.
 */
export type Narrowing = Omit<ProductNarrowingQuery, 'facets'>;

/** products.id spelled out: drizzle writes columns unqualified in selected fields. */
const productId = sql.raw('"products"."id"');

/** A decimal string in the market's currency → integer minor units (a 422 if finer than the currency). */
export function toMinor(amount: string, currency: string, field: string): number {
  const minor = parseMinorUnits(amount, currency);
  if (minor === null) {
    const digits = minorDigits(currency);
    throw new DomainError('validation_failed', `${field} must be an amount in ${currency} with at most ${digits} decimals.`, {
      errors: [{ pointer: `#/query/${field}`, code: 'invalid_amount', detail: `Give a decimal amount with at most ${digits} decimals for ${currency}.` }],
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

/** A variant of the product priced in the market, with `more` conditions on v, vp (and il). */
function someVariant(choice: MarketChoice, more: SQL, joins: SQL = sql``): SQL {
  return sql`exists (select 1 from product_variants v inner join variant_prices vp on vp.variant_id = v.id and vp.market_id = ${choice.market.id} ${joins}
    where v.product_id = ${productId} and ${more})`;
}

const purchasable = sql`(il.policy <> 'deny' or il.quantity > 0)`;

/** The filters as SQL conditions on products (validates the amounts: 422s). */
export function narrowingConditions(siteId: string, siteDefaultLocale: string, choice: MarketChoice, filter: Narrowing): SQL[] {
  const conditions: SQL[] = [];
  if (filter.available) conditions.push(someVariant(choice, purchasable, sql`inner join inventory_levels il on il.variant_id = v.id`));
  const range = priceRange(filter, choice);
  if (range) {
    conditions.push(someVariant(choice, sql`vp.amount >= ${range.min ?? 0} and vp.amount <= ${range.max ?? Number.MAX_SAFE_INTEGER}`));
  }
  // Names and values are the displayed ones, in the locale (what facets and products show).
  const texts = chosenOptionTexts(sql.raw('v.product_id'), choice.locale, siteDefaultLocale);
  for (const [name, values] of optionGroups(filter.option)) {
    const shownName = displayedNameSql(texts, sql.raw('o.key'));
    const shownValue = displayedValueSql(texts, sql.raw('o.key'), sql.raw('o.value'));
    conditions.push(
      someVariant(choice, sql`${shownName} = ${name} and ${shownValue} in (${sql.join(values.map((v) => sql`${v}`), sql`, `)})`, sql`, json_each(v.options) o`),
    );
  }
  if (filter.collection !== undefined) {
    conditions.push(sql`${productId} in (select cp.product_id from collection_products cp inner join collections c on c.id = cp.collection_id
      where c.site_id = ${siteId} and c.handle = ${filter.collection} and c.status = 'published')`);
  }
  return conditions;
}

export function hasNarrowing(filter: Narrowing): boolean {
  return filter.available !== undefined || filter.priceMin !== undefined || filter.priceMax !== undefined || filter.option !== undefined || filter.collection !== undefined;
}

/** The filters as part of a cache key (options sorted: the same set is the same key). */
export function narrowingKey(filter: Narrowing & { facets?: 'true' }): string {
  if (!hasNarrowing(filter) && !filter.facets) return '';
  return JSON.stringify([filter.available ?? null, filter.priceMin ?? null, filter.priceMax ?? null, [...(filter.option ?? [])].sort(), filter.collection ?? null, filter.facets ?? null]);
}

type VariantFacts = { productId: string; options: Record<string, string>; amount: number; purchasable: boolean };

/**
 * Facets over the products `base` selects (every condition but the narrowing filters) among a
 * search's `matches` (search.ts), each counted with every filter but its own. One read of the
 * variants; counted here.
 */
export async function facetsOf(
  database: DbOrTx, choice: MarketChoice, siteDefaultLocale: string, base: (SQL | undefined)[], filter: Narrowing, matches?: number[],
): Promise<ProductFacets> {
  const where = base.filter((c): c is SQL => c !== undefined);
  const rows = await database.all<{ product_id: string; options: string; texts: string | null; amount: number; purchasable: number }>(sql`
    select v.product_id, v.options, ${chosenOptionTexts(productId, choice.locale, siteDefaultLocale)} as texts, vp.amount,
      coalesce(il.policy <> 'deny' or il.quantity > 0, 0) as purchasable
    from ${matches ? productsAmong(matches) : sql`products`}
    inner join product_variants v on v.product_id = ${productId}
    inner join variant_prices vp on vp.variant_id = v.id and vp.market_id = ${choice.market.id}
    left join inventory_levels il on il.variant_id = v.id
    where ${sql.join(where, sql` and `)}`);
  // Counted under the displayed names and values, so a facet sent back as a filter matches.
  const byProduct = new Map<string, VariantFacts[]>();
  const nameSet = new Set<string>();
  for (const r of rows) {
    const options = displayedVariantOptions(JSON.parse(r.options) as Record<string, string>, r.texts === null ? null : (JSON.parse(r.texts) as OptionTexts));
    const facts = { productId: r.product_id, options, amount: r.amount, purchasable: r.purchasable === 1 };
    for (const name of Object.keys(options)) nameSet.add(name);
    const list = byProduct.get(r.product_id);
    if (list) list.push(facts);
    else byProduct.set(r.product_id, [facts]);
  }
  const range = priceRange(filter, choice);
  const groups = optionGroups(filter.option);
  const passes = (variants: VariantFacts[], except: string) =>
    (except === 'available' || !filter.available || variants.some((v) => v.purchasable)) &&
    (except === 'price' || !range || variants.some((v) => v.amount >= (range.min ?? 0) && v.amount <= (range.max ?? Number.MAX_SAFE_INTEGER))) &&
    [...groups].every(([name, values]) => except === `option:${name}` || variants.some((v) => values.includes(v.options[name]!)));

  const names = [...nameSet].sort();
  const collator = new Intl.Collator(choice.locale, { numeric: true });
  const options = names.map((name) => {
    const counts = new Map<string, number>();
    for (const variants of byProduct.values()) {
      if (!passes(variants, `option:${name}`)) continue;
      for (const value of new Set(variants.map((v) => v.options[name]).filter((v): v is string => v !== undefined))) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    return { name, values: [...counts].sort((a, b) => collator.compare(a[0], b[0])).map(([value, count]) => ({ value, count })) };
  });
  let available = 0;
  let unavailable = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const variants of byProduct.values()) {
    if (passes(variants, 'available')) {
      if (variants.some((v) => v.purchasable)) available++;
      else unavailable++;
    }
    if (passes(variants, 'price')) {
      for (const v of variants) {
        min = Math.min(min, v.amount);
        max = Math.max(max, v.amount);
      }
    }
  }
  const currency = choice.market.currency;
  return {
    options: options.filter((o) => o.values.length > 0),
    availability: { available, unavailable },
    price: min === Infinity ? null : { min: toMoney(min, currency), max: toMoney(max, currency) },
  };
}
