import type { ProductFacets } from '@/lib/contract/catalog';
import type { ProductSort } from '@/lib/contract/operations/reads';
import { formatMoney } from '../_lib/format';
import { fill, type Dictionary } from '../_lib/i18n';
import { listHref, splitOption, without, type ListState } from '../_lib/search';
import { ShopLink } from './shop-link';

/** A filter in effect, named for the shopper, and the list's URL without it. */
export type ActiveFilter = { label: string; href: string };

export function activeFilters(path: string, state: ListState, t: Dictionary, locale: string, currency: string): ActiveFilter[] {
  const price = (amount: string) => formatMoney({ amount, currency }, locale);
  const list: ActiveFilter[] = [];
  if (state.available) list.push({ label: t.filterAvailable, href: listHref(path, without(state, 'available')) });
  if (state.priceMin)
    list.push({ label: fill(t.filterPriceFrom, { price: price(state.priceMin) }), href: listHref(path, without(state, 'priceMin')) });
  if (state.priceMax)
    list.push({ label: fill(t.filterPriceTo, { price: price(state.priceMax) }), href: listHref(path, without(state, 'priceMax')) });
  for (const option of state.options) {
    const { name, value } = splitOption(option);
    list.push({ label: `${name}: ${value}`, href: listHref(path, without(state, 'option', option)) });
  }
  return list;
}

const SORTS: { value: Exclude<ProductSort, 'relevance'>; label: (t: Dictionary) => string }[] = [
  { value: 'price-asc', label: (t) => t.sortPriceAsc },
  { value: 'price-desc', label: (t) => t.sortPriceDesc },
  { value: 'newest', label: (t) => t.sortNewest },
  { value: 'title-asc', label: (t) => t.sortTitleAsc },
];

/** A list's order without `sort`. */
export type ListOrder = 'relevance' | 'featured' | 'title-asc';

const DEFAULT_LABEL: Record<ListOrder, (t: Dictionary) => string> = {
  relevance: (t) => t.sortRelevance,
  featured: (t) => t.sortFeatured,
  'title-asc': (t) => t.sortTitleAsc,
};

type Props = {
  /** The list page's path: the form's action and the base of its links. */
  path: string;
  state: ListState;
  facets: ProductFacets | undefined;
  /**
   * What the list shows without `sort`: the search's best match (the search page, whose form
   * also holds the words), the collection's own order, or by name (all products).
   */
  defaultOrder: ListOrder;
  t: Dictionary;
  locale: string;
  currency: string;
};

/**
 * Sort and filters of a product list, with counts from the API's facets. A plain GET form
 * with an Apply button, so it works without JavaScript and every view is a URL. It ships no
 * script: the list pages stay server-rendered. Keyed by the state, so after a client-side
 * navigation (a "remove filter" link) the fields show the new state, not the old one.
 *
 * On a phone the form is folded in a <details> behind one "Filter and sort" button, so the
 * results start on the first screen (it was a screen and more of fields before them); on a
 * wider screen the stylesheet shows it open beside the list (storefront.css, .filters-fold).
 */
export function ProductFilters({ path, state, facets, defaultOrder, t, locale, currency }: Props) {
  const checked = new Set(state.options);
  // Values in the URL that the facets do not list (nothing has them now) stay visible, ticked,
  // so the shopper can untick them.
  const groups = (facets?.options ?? []).map((o) => ({ name: o.name, values: [...o.values] }));
  for (const option of state.options) {
    const { name, value } = splitOption(option);
    let group = groups.find((g) => g.name === name);
    if (!group) groups.push((group = { name, values: [] }));
    if (!group.values.some((v) => v.value === value)) group.values.push({ value, count: 0 });
  }
  const range = facets?.price ?? null;
  const anyFilter = state.available || state.priceMin !== undefined || state.priceMax !== undefined || state.options.length > 0;
  const sortValue = state.sort === 'relevance' || state.sort === defaultOrder ? '' : (state.sort ?? '');
  const inEffect =
    (state.available ? 1 : 0) +
    (state.priceMin !== undefined ? 1 : 0) +
    (state.priceMax !== undefined ? 1 : 0) +
    state.options.length +
    (sortValue ? 1 : 0);
  return (
    <details className="filters-fold">
      <summary className="btn btn-secondary filters-toggle">
        {t.filterAndSort}
        {inEffect > 0 ? <span className="count"> ({fill(t.filtersInEffect, { count: inEffect })})</span> : null}
      </summary>
      <form key={listHref(path, state)} className="filters" method="get" action={path} aria-labelledby="filters-title">
        {/* Not a heading: product cards are the page's h2s, and the form is a landmark named by this. */}
        <p id="filters-title" className="filters-title">
          {t.filters}
        </p>
        {defaultOrder === 'relevance' ? (
          // On the search page the words can be changed together with the filters.
          <div className="field">
            <label htmlFor="list-q">{t.search}</label>
            <input id="list-q" name="q" type="search" maxLength={200} defaultValue={state.q ?? ''} />
          </div>
        ) : null}
        <div className="field">
          <label htmlFor="list-sort">{t.sortBy}</label>
          <select id="list-sort" name="sort" defaultValue={sortValue}>
            <option value="">{DEFAULT_LABEL[defaultOrder](t)}</option>
            {SORTS.filter((s) => s.value !== defaultOrder).map((s) => (
              <option key={s.value} value={s.value}>
                {s.label(t)}
              </option>
            ))}
          </select>
        </div>
        <fieldset>
          <legend>{t.filterAvailability}</legend>
          <label className="check">
            <input type="checkbox" name="available" value="true" defaultChecked={state.available} />
            <span>{t.filterAvailable}</span>
            {facets ? <span className="count">({facets.availability.available})</span> : null}
          </label>
        </fieldset>
        <fieldset>
          <legend>{fill(t.filterPrice, { currency })}</legend>
          <div className="price-range">
            <div className="field">
              <label htmlFor="list-price-min">{t.filterPriceMin}</label>
              <input
                id="list-price-min"
                name="priceMin"
                inputMode="decimal"
                autoComplete="off"
                defaultValue={state.priceMin ?? ''}
                placeholder={range ? range.min.amount : undefined}
              />
            </div>
            <div className="field">
              <label htmlFor="list-price-max">{t.filterPriceMax}</label>
              <input
                id="list-price-max"
                name="priceMax"
                inputMode="decimal"
                autoComplete="off"
                defaultValue={state.priceMax ?? ''}
                placeholder={range ? range.max.amount : undefined}
              />
            </div>
          </div>
          {range ? (
            <p className="muted hint">
              {formatMoney(range.min, locale)} – {formatMoney(range.max, locale)}
            </p>
          ) : null}
        </fieldset>
        {groups.map((group) => (
          <fieldset key={group.name} className="filter-values">
            <legend>{group.name}</legend>
            {group.values.map((v) => {
              const value = `${group.name}:${v.value}`;
              return (
                <label className="check" key={value}>
                  <input type="checkbox" name="option" value={value} defaultChecked={checked.has(value)} />
                  <span>{v.value}</span>
                  <span className="count">({v.count})</span>
                </label>
              );
            })}
          </fieldset>
        ))}
        <div className="filters-actions">
          <button className="btn btn-primary" type="submit">
            {t.filterApply}
          </button>
          {anyFilter || state.sort ? (
            <ShopLink fullLoad={false} href={listHref(path, { q: state.q, available: false, options: [] })}>
              {t.filterClear}
            </ShopLink>
          ) : null}
        </div>
      </form>
    </details>
  );
}

/** The list's filters in effect, each a link that removes it. */
export function ActiveFilterLinks({ filters, t }: { filters: ActiveFilter[]; t: Dictionary }) {
  if (filters.length === 0) return null;
  return (
    <ul className="active-filters">
      {filters.map((f) => (
        <li key={f.href}>
          <ShopLink fullLoad={false} href={f.href}>
            {fill(t.searchRemoveFilter, { filter: f.label })}
          </ShopLink>
        </li>
      ))}
    </ul>
  );
}
