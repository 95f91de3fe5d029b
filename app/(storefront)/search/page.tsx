import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { ProductListing } from '../_components/product-listing';
import { productList } from '../_lib/data';
import { fill } from '../_lib/i18n';
import { listHref, readListState } from '../_lib/search';
import { shop, snapshot } from '../_lib/shop';

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const [{ site, t }, raw] = await Promise.all([shop(), searchParams]);
  const { state } = readListState(raw);
  const title = state.q ? fill(t.searchResultsFor, { q: state.q }) : t.search;
  // Result pages are endless combinations of words and filters: not for search engines.
  return { title: `${title} | ${site.name}`, robots: { index: false, follow: true } };
}

// GET /search?q=&sort=&available=&priceMin=&priceMax=&option=&cursor=
export default async function SearchPage({ searchParams }: Props) {
  const [{ t, locale, market }, raw] = await Promise.all([shop(), searchParams]);
  const { state: asked, ignored, blanks } = readListState(raw);
  // A submitted filter form names its empty fields too; the list's own URL leaves them out.
  if (blanks && ignored.length === 0) redirect(listHref('/search', asked));
  const [{ page, state, refused }, navigation] = await Promise.all([
    productList(asked),
    snapshot().then(
      (s) => s.navigation,
      () => [],
    ),
  ]);
  return (
    <>
      <div className="page-head">
        <h1>{state.q ? fill(t.searchResultsFor, { q: state.q }) : t.search}</h1>
        {state.q ? null : <p>{t.searchPrompt}</p>}
      </div>
      <ProductListing
        path="/search"
        state={state}
        products={page.data}
        cursor={state.cursor}
        nextCursor={page.page.nextCursor}
        facets={page.facets}
        refused={[...ignored, ...refused]}
        defaultOrder="relevance"
        collections={navigation}
        t={t}
        locale={locale}
        currency={market.currency}
      />
    </>
  );
}
