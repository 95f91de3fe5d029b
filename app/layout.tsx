import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { connection } from 'next/server';
import { requestOrigin, shop } from './(storefront)/_lib/shop';

export async function generateMetadata(): Promise<Metadata> {
  // Canonical and Open Graph URLs resolve against the host the shopper (or crawler) used.
  return { title: { default: 'Shop', template: '%s' }, metadataBase: new URL(await requestOrigin()) };
}

export const viewport: Viewport = { width: 'device-width', initialScale: 1, themeColor: '#faf8f5' };

/** Minimal on purpose: the shop's chrome lives in app/(storefront)/layout.tsx. */
export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders on request (nothing here may call the API at build time, when no
  // server runs). The page language follows the shopper's locale; if the API is down the
  // page still renders, in English.
  await connection();
  const lang = await shop().then((s) => s.locale, () => 'en');
  return (
    <html lang={lang}>
      <body>{children}</body>
    </html>
  );
}
