import type { Metadata } from 'next';
import Link from 'next/link';
import './(storefront)/storefront.css';

export const metadata: Metadata = { title: 'Page not found' };

/**
 * Unknown URLs outside the shop's routes: a plain page that leads back to it. The app has
 * two root layouts (pages rendered on request, and cached product pages), so there is no
 * one layout to compose this 404 from; Next serves this document as it is.
 */
export default function GlobalNotFound() {
  return (
    <html lang="en">
      <body>
        <main className="container state">
          <h1>Page not found</h1>
          <p className="muted">We couldn’t find that page. It may have moved or is no longer available.</p>
          <Link className="btn btn-primary" href="/">Go to the shop</Link>
        </main>
      </body>
    </html>
  );
}
