import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { ViewBeacon } from '../../_components/analytics-beacon';
import { ProductListing } from '../../_components/product-listing';
import { ShopLink } from '../../_components/shop-link';
import { collection, productList } from '../../_lib/data';
import { isNarrowed, listHref, readListState } from '../../_lib/search';
import { shop, snapshot } from '../../_lib/shop';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ handle: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * The collection's own cursor when the list is in the collection's order; a sorted or
 * filtered list is the products list's (filtered to the collection), with cursors of its own.
 */
function collectionCursor(raw: Record<string, string | string[] | undefined>) {
  const { state } = readListState(raw);
  return isNarrowed(state) ? undefined : state.cursor;
}

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const [{ handle }, raw, { site }] = await Promise.all([params, searchParams, shop()]);
  const { page: c } = await collection(handle, collectionCursor(raw));
  return {
    title: `${c.title} | ${site.name}`,
    description: c.description,
    alternates: { canonical: `/collections/${c.handle}` },
    openGraph: c.image ? { images: [{ url: c.image.url, width: c.image.width, height: c.image.height, alt: c.image.alt }] } : undefined,
  };
}

/**
 * In the collection's own order its members come with the collection (and the facets from
 * the products list, one product long); sorted or filtered, the list is the products list
 * narrowed to the collection. The filters are the search page's (ProductListing).
 */
export default async function CollectionPage({ params, searchParams }: Props) {
  const [{ handle }, raw, { t, locale, market }] = await Promise.all([params, searchParams, shop()]);
  const { state: read, ignored, blanks } = readListState(raw);
  // A collection's list is not searched (the search page is for that), only sorted and filtered.
  const asked = { ...read, q: undefined };
  // A submitted filter form names its empty fields too; the list's own URL leaves them out.
  if (blanks && ignored.length === 0) redirect(listHref(`/collections/${encodeURIComponent(handle)}`, asked));
  const narrowed = isNarrowed(asked);
  // The shop's 404 for an unknown collection comes from here, before the list is read.
  const { page: c, cursor: current } = await collection(handle, narrowed ? undefined : asked.cursor);
  const [list, navigation] = await Promise.all([
    narrowed
      ? productList(asked, { collection: c.handle })
      : productList({ available: false, options: [] }, { collection: c.handle, limit: 1 }),
    snapshot().then(
      (s) => s.navigation,
      () => [],
    ),
  ]);
  const products = narrowed ? list.page.data : c.products;
  const state = narrowed ? list.state : { ...asked, cursor: current };
  const nextCursor = narrowed ? list.page.page.nextCursor : c.page.nextCursor;
  return (
    <>
      <nav className="breadcrumbs" aria-label={t.breadcrumb}>
        <ol>
          <li>
            <ShopLink fullLoad={false} href="/">
              {t.home}
            </ShopLink>
          </li>
          <li>
            <span aria-current="page">{c.title}</span>
          </li>
        </ol>
      </nav>
      {c.image ? (
        <div className="collection-banner">
          {/* eslint-disable-next-line @next/next/no-img-element -- the seed's SVGs need no optimiser */}
          <img src={c.image.url} alt="" width={c.image.width} height={c.image.height} />
        </div>
      ) : null}
      <div className="page-head">
        <h1>{c.title}</h1>
        <p>{c.description}</p>
      </div>
      <ProductListing
        path={`/collections/${c.handle}`}
        state={state}
        products={products}
        cursor={state.cursor}
        nextCursor={nextCursor}
        facets={list.page.facets}
        refused={[...ignored, ...list.refused]}
        defaultOrder="featured"
        collections={navigation.filter((n) => n.handle !== c.handle)}
        t={t}
        locale={locale}
        currency={market.currency}
      />
      <ViewBeacon event={{ type: 'collection_view', collectionHandle: c.handle }} />
    </>
  );
}
