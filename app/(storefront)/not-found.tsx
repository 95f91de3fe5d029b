import type { Metadata } from 'next';
import { ShopNotFound } from './_components/shop-not-found';
import { dictionary } from './_lib/i18n';
import { shop } from './_lib/shop';

/** The page's own metadata never ran (it is what was not found): the 404 has a title of its own. */
export async function generateMetadata(): Promise<Metadata> {
  const context = await shop().catch(() => null);
  const title = (context?.t ?? dictionary('en')).notFoundTitle;
  return { title: context ? `${title} | ${context.site.name}` : title };
}

export default function NotFound() {
  return <ShopNotFound fullLoad={false} />;
}
