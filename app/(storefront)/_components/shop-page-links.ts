import type { SitePageKey } from '@/lib/contract/catalog';
import type { Dictionary } from '../_lib/i18n';

/** The shop's own pages (texts from its settings): each title and path, in the footer's order. */
export const SHOP_PAGE_LINKS: { key: SitePageKey; href: string; title: (t: Dictionary) => string }[] = [
  { key: 'shipping', href: '/shipping', title: (t) => t.pageShipping },
  { key: 'returns', href: '/returns', title: (t) => t.pageReturns },
  { key: 'contact', href: '/contact', title: (t) => t.pageContact },
  { key: 'terms', href: '/legal/terms', title: (t) => t.pageTerms },
  { key: 'withdrawal', href: '/legal/withdrawal', title: (t) => t.pageWithdrawal },
  { key: 'privacy', href: '/legal/privacy', title: (t) => t.pagePrivacy },
  { key: 'imprint', href: '/legal/imprint', title: (t) => t.pageImprint },
];
