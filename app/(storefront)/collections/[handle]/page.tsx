import type { Metadata } from 'next';
import Link from 'next/link';
import { ViewBeacon } from '../../_components/analytics-beacon';
import { Pagination } from '../../_components/pagination';
import { ProductGrid } from '../../_components/product-card';
import { collection } from '../../_lib/data';
import { shop } from '../../_lib/shop';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ handle: string }>; searchParams: Promise<{ cursor?: string | string[] }> };

function cursorOf(value: string | string[] | undefined) {
  return typeof value === 'string' && value.length <= 512 ? value : undefined;
}

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const [{ handle }, { cursor }, { site }] = await Promise.all([params, searchParams, shop()]);
  const { page: c } = await collection(handle, cursorOf(cursor));
  return {
    title: `${c.title} | ${site.name}`,
    description: c.description,
    alternates: { canonical: `/collections/${c.handle}` },
    openGraph: c.image ? { images: [{ url: c.image.url, width: c.image.width, height: c.image.height, alt: c.image.alt }] } : undefined,
  };
}

export default async function CollectionPage({ params, searchParams }: Props) {
  const [{ handle }, { cursor }, { t, locale }] = await Promise.all([params, searchParams, shop()]);
  const { page: c, cursor: current } = await collection(handle, cursorOf(cursor));
  return (
    <>
      <nav className="breadcrumbs" aria-label={t.breadcrumb}>
        <ol>
          <li><Link href="/">{t.home}</Link></li>
          <li><span aria-current="page">{c.title}</span></li>
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
      <ProductGrid products={c.products} locale={locale} t={t} eager={4} heading="h2" />
      <Pagination path={`/collections/${c.handle}`} cursor={current} nextCursor={c.page.nextCursor} t={t} />
      <ViewBeacon event={{ type: 'collection_view', collectionHandle: c.handle }} />
    </>
  );
}
