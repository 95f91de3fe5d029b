import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { ProductListing } from '../_components/product-listing';
import { productList } from '../_lib/data';
import { isNarrowed, listHref, readListState, type ListState } from '../_lib/search';
import { shop, snapshot } from '../_lib/shop';

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * All products by name, A–Z in the shopper's language, unless `sort` says otherwise: the whole
 * catalog to browse (new arrivals have a collection of their own). The API's order without
 * `sort` is by handle, an English word, whatever the language.
 */
const DEFAULT_SORT = 'title-asc';

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const [{ site, t, texts }, raw] = await Promise.all([shop(), searchParams]);
  const { state } = readListState(raw);
  return {
    title: `${t.allProducts} | ${site.name}`,
    description: texts.heroText ?? undefined,
    // Sorted and filtered views are endless combinations of the same products: not for search engines.
    ...(isNarrowed(state) ? { robots: { index: false, follow: true } } : {}),
  };
}

// GET /products?sort=&available=&priceMin=&priceMax=&option=&cursor=
export default async function ProductsPage({ searchParams }: Props) {
  const [{ t, locale, market }, raw] = await Promise.all([shop(), searchParams]);
  const { state: read, ignored, blanks } = readListState(raw);
  // Not searched here (the search page is for that), only sorted and filtered.
  const asked: ListState = { ...read, q: undefined };
  // A submitted filter form names its empty fields too; the list's own URL leaves them out.
  if (blanks && ignored.length === 0) redirect(listHref('/products', asked));
  const [list, navigation] = await Promise.all([
    productList({ ...asked, sort: asked.sort ?? DEFAULT_SORT }),
    snapshot().then(
      (s) => s.navigation,
      () => [],
    ),
  ]);
  // The default order stays out of the list's links, as the shopper's URL had it.
  const state = asked.sort === undefined && list.state.sort === DEFAULT_SORT ? { ...list.state, sort: undefined } : list.state;
  return (
    <>
      <div className="page-head">
        <h1>{t.allProducts}</h1>
      </div>
      <ProductListing
        path="/products"
        state={state}
        products={list.page.data}
        cursor={state.cursor}
        nextCursor={list.page.page.nextCursor}
        facets={list.page.facets}
        refused={[...ignored, ...list.refused]}
        defaultOrder={DEFAULT_SORT}
        collections={navigation}
        t={t}
        locale={locale}
        currency={market.currency}
      />
    </>
  );
}
