import type { Metadata } from 'next';
import { fetchProducts } from '@/lib/site-client';
import { Pagination } from '../_components/pagination';
import { ProductGrid } from '../_components/product-card';
import { listFrom } from '../_lib/data';
import { locality, shop } from '../_lib/shop';

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<{ cursor?: string | string[] }> };

export async function generateMetadata(): Promise<Metadata> {
  const { site, t, texts } = await shop();
  return { title: `${t.allProducts} | ${site.name}`, description: texts.heroText ?? undefined };
}

export default async function ProductsPage({ searchParams }: Props) {
  const { cursor } = await searchParams;
  const [{ t, locale }, where] = await Promise.all([shop(), locality()]);
  const wanted = typeof cursor === 'string' && cursor.length <= 512 ? cursor : undefined;
  const { page, cursor: current } = await listFrom(wanted, (from) => fetchProducts({ ...where, limit: 24, cursor: from }));
  return (
    <>
      <div className="page-head"><h1>{t.allProducts}</h1></div>
      <ProductGrid products={page.data} locale={locale} t={t} eager={4} heading="h2" />
      <Pagination path="/products" cursor={current} nextCursor={page.page.nextCursor} t={t} />
    </>
  );
}
