import Link from 'next/link';
import './(storefront)/storefront.css';

/** Unknown URLs outside the shop's routes: a plain page that leads back to it. */
export default function NotFound() {
  return (
    <main className="container state">
      <h1>Page not found</h1>
      <p className="muted">We couldn’t find that page. It may have moved or is no longer available.</p>
      <Link className="btn btn-primary" href="/">Go to the shop</Link>
    </main>
  );
}
