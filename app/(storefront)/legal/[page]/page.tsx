import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import type { SitePageKey } from '@/lib/contract/catalog';
import { ShopPage, shopPageMetadata } from '../../_components/shop-page';

export const dynamic = 'force-dynamic';

const LEGAL: SitePageKey[] = ['imprint', 'privacy', 'terms', 'withdrawal'];
type Props = { params: Promise<{ page: string }> };

function legalPage(page: string): SitePageKey {
  const key = LEGAL.find((p) => p === page);
  if (!key) notFound();
  return key;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return shopPageMetadata(legalPage((await params).page));
}

// GET /legal/imprint, /legal/privacy, /legal/terms, /legal/withdrawal
export default async function LegalPage({ params }: Props) {
  return <ShopPage page={legalPage((await params).page)} />;
}
