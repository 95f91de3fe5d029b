import { NextResponse, type NextRequest } from 'next/server';
import { problemResponse } from '@/lib/http/problems';
import { requestIdFor } from '@/lib/http/request-id';
import { siteApiAnswers } from '@/lib/site-client/health';
import { productPageKey } from '@/lib/storefront-page-key';
import { CACHED_PAGES_PREFIX, cachedProductPath } from '@/lib/storefront-routing';

/**
 * Product handles are slugs. Anything else under /products/ — the catalog's images in
 * public/products/*.svg above all — is left alone; a handle of another shape (dots,
 * capitals, non-ASCII) still works, rendered on request.
 */
const PRODUCT_PAGE = /^\/products\/([a-z0-9][a-z0-9-]{0,199})$/;

/**
 * 1. Next's router answers a bare 500 to a path whose percent-encoding is malformed
 *    (`/products/%E0%A4%A`) before any handler runs. Such a path names nothing: answer 404,
 *    as problem+json under /site/v1.
 * 2. A product page is served from Next's page cache: it is rewritten to an internal route
 *    whose path carries everything the HTML depends on (origin, market, locale, the Site's
 *    catalog version, handle), so a catalog change made on any instance is a new key on the
 *    very next request, everywhere. When the key cannot be had, the request goes on to the
 *    page rendered on request, exactly as without this step.
 * 3. The internal route is reachable only through that rewrite, so nobody can fill the
 *    cache with keys of their own making.
 */
export async function proxy(req: NextRequest): Promise<Response | undefined> {
  const path = new URL(req.url).pathname;
  try {
    decodeURIComponent(path);
  } catch {
    const requestId = requestIdFor(req);
    if (path.startsWith('/site/v1/')) {
      return problemResponse({ code: 'not_found', detail: 'No resource has that name (the path is not validly percent-encoded).', requestId, headers: { 'X-Request-Id': requestId } });
    }
    return notFound();
  }

  if (path === CACHED_PAGES_PREFIX || path.startsWith(`${CACHED_PAGES_PREFIX}/`)) return notFound();

  const outage = await shopPageDuringOutage(path);
  if (outage) return outage;

  const handle = PRODUCT_PAGE.exec(path)?.[1];
  if (handle) {
    const key = await productPageKey(req);
    if (!key) return undefined;
    // From req.url, not req.nextUrl: NextURL spells 127.0.0.1 as "localhost", and the
    // router takes a rewrite to another origin for a request to another server.
    const target = new URL(req.url);
    target.pathname = cachedProductPath(key, handle);
    // The same URL shows other markets, languages and catalog versions: no shared cache
    // (CDN, proxy) may keep the answer, and a browser asks again, exactly as for the
    // page rendered on request. Next leaves a Cache-Control it finds on the response.
    return NextResponse.rewrite(target, { headers: { 'Cache-Control': 'private, no-cache, no-store, max-age=0, must-revalidate' } });
  }
  return undefined;
}

/** The shop's pages rendered on request (the matcher below lists the same). */
const SHOP_PAGE = /^\/(?:products|products\/[^/]+|collections\/[^/]+|cart|checkout\/.+)?$/;

/**
 * While the API does not answer, a shop page still renders — its layout says the shop
 * cannot be loaded — but as 503 with Retry-After, so monitors and crawlers see the outage.
 * Next fixes the status before the page renders and offers a page no way to choose 503, so
 * it is set here (and a product page is not taken from the page cache meanwhile).
 */
async function shopPageDuringOutage(path: string): Promise<Response | undefined> {
  if (!SHOP_PAGE.test(path) || (await siteApiAnswers())) return undefined;
  return NextResponse.next({ status: 503, headers: { 'Retry-After': '5', 'Cache-Control': 'no-store' } });
}

function notFound(): Response {
  return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

export const config = {
  matcher: [
    '/(.*%.*)',
    '/products/:handle([a-z0-9][a-z0-9-]*)',
    '/storefront-cache',
    '/storefront-cache/:path*',
    // the shop's other pages, for shopPageDuringOutage
    '/',
    '/products',
    '/collections/:handle',
    '/cart',
    '/checkout/:path+',
  ],
};
