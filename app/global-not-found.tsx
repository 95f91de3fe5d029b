import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import './(storefront)/storefront.css';

export const metadata: Metadata = { title: 'Page not found' };

/**
 * Unknown URLs outside the shop's routes: a plain page that leads back to it. The app has
 * two root layouts (pages rendered on request, and cached product pages), so there is no
 * one layout to compose this 404 from; Next serves this document as it is.
 *
 * Rendered on request, not prerendered: its scripts must carry the request's CSP nonce
 * (proxy.ts), which a document built ahead of time cannot know.
 */
export default async function GlobalNotFound() {
  await connection();
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
