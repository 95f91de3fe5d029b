import type { ProductFacets, ProductSummary } from '@/lib/contract/catalog';
import { fill, type Dictionary } from '../_lib/i18n';
import { listHref, resultCount, type ListParam, type ListState } from '../_lib/search';
import { Pagination } from './pagination';
import { ProductGrid } from './product-card';
import { ActiveFilterLinks, ProductFilters, activeFilters, type ListOrder } from './product-filters';
import { ShopLink } from './shop-link';

type Props = {
  path: string;
  state: ListState;
  products: ProductSummary[];
  /** The page's own cursor (as read) and the next one. */
  cursor?: string;
  nextCursor: string | null;
  facets: ProductFacets | undefined;
  /** URL parameters whose values could not be used (named in a message above the list). */
  refused: ListParam[];
  defaultOrder: ListOrder;
  /** Collections to suggest when nothing matches. */
  collections: { handle: string; title: string }[];
  t: Dictionary;
  locale: string;
  currency: string;
};

/**
 * A product list with its sort, filters, result count, pages and an honest empty state:
 * the search page, the collection pages and all products share it.
 */
export function ProductListing({
  path,
  state,
  products,
  cursor,
  nextCursor,
  facets,
  refused,
  defaultOrder,
  collections,
  t,
  locale,
  currency,
}: Props) {
  const count = resultCount(state, facets);
  const active = activeFilters(path, state, t, locale, currency);
  return (
    <div className="listing">
      <ProductFilters path={path} state={state} facets={facets} defaultOrder={defaultOrder} t={t} locale={locale} currency={currency} />
      <section className="listing-results" aria-labelledby="list-count">
        <div className="listing-bar">
          <p id="list-count" className="m-0 result-count">
            {count === null ? null : count === 1 ? t.searchOneResult : fill(t.searchResults, { count })}
          </p>
          {products.length > 0 ? <ActiveFilterLinks filters={active} t={t} /> : null}
        </div>
        {refused.length > 0 ? (
          <p className="notice notice-warning" role="status">
            {fill(t.searchIgnored, { params: refused.join(', ') })}
          </p>
        ) : null}
        {products.length > 0 ? (
          // A list is under the shop's root layout, a product page under its own.
          <ProductGrid products={products} locale={locale} t={t} fullLoads eager={4} heading="h2" />
        ) : (
          <div className="state empty-list">
            <h2>{t.searchEmptyTitle}</h2>
            <p>{state.q ? fill(active.length > 0 ? t.searchEmptyForFiltered : t.searchEmptyFor, { q: state.q }) : t.searchEmptyNothing}</p>
            {active.length > 0 ? (
              <>
                <p>{t.searchRemoveFilterHint}</p>
                <ActiveFilterLinks filters={active} t={t} />
              </>
            ) : null}
            {collections.length > 0 ? (
              <>
                <p>{t.searchBrowseCollections}</p>
                <ul className="collection-links">
                  {collections.map((c) => (
                    <li key={c.handle}>
                      <ShopLink fullLoad={false} href={`/collections/${c.handle}`}>
                        {c.title}
                      </ShopLink>
                    </li>
                  ))}
                </ul>
              </>
            ) : null}
          </div>
        )}
        <Pagination path={path} cursor={cursor} nextCursor={nextCursor} t={t} hrefFor={(c) => listHref(path, { ...state, cursor: c })} />
      </section>
    </div>
  );
}
