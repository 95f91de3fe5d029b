import { NextResponse, type NextRequest } from 'next/server';
import { problemResponse } from '@/lib/contract/problem-answers';
import { requestIdFor } from '@/lib/http/request-id';
import { noteApiAnswered, siteApiAnswers } from '@/lib/site-client/health';
import { shopperLimitedFor } from '@/lib/site-client/shopper-limits';
import { shopperAddress } from '@/lib/shopper-address';
import { HSTS, noncePolicy } from '@/lib/security/content-security-policy.mjs';
import { env } from '@/lib/env';
import { productPageKeyAndPage } from './page-key';
import { PAGE_CACHE_CONTROL, storedPageAnswer } from './kept-pages';
import { CACHED_PAGES_PREFIX, cachedProductPath, SHOP_PAGE } from './routing';

/**
 * The steps of proxy.ts, in the order it takes them: each answers the request, or leaves it
 * to the next (undefined).
 */

/**
 * Next's router answers a bare 500 to a path whose percent-encoding is malformed
 * (`/products/%E0%A4%A`) before any handler runs. Such a path names nothing: 404, as
 * problem+json under /site/v1.
 */
export function malformedPath(req: NextRequest, path: string): Response | undefined {
  try {
    decodeURIComponent(path);
    return undefined;
  } catch {
    const requestId = requestIdFor(req);
    if (!path.startsWith('/site/v1/')) return notFound();
    return problemResponse({
      code: 'not_found',
      detail: 'No resource has that name (the path is not validly percent-encoded).',
      requestId,
      headers: { 'X-Request-Id': requestId },
    });
  }
}

/**
 * The internal route of kept product pages is reachable only through the product page's
 * rewrite (shopDocument), so nobody can fill the page cache with keys of their own making.
 */
export function internalPath(path: string): Response | undefined {
  return path === CACHED_PAGES_PREFIX || path.startsWith(`${CACHED_PAGES_PREFIX}/`) ? notFound() : undefined;
}

/**
 * A shop page, in this order:
 * 1. a shopper the API has just refused for their read budget gets `busy` (429) at once;
 * 2. while the API does not answer, the page renders as 503 (shopPageDuringOutage);
 * 3. a product page is served as kept: from the database, when a page for its key was
 *    rendered before by any instance and nothing it shows changed since (./kept-pages.ts),
 *    else from Next's page cache, through a rewrite to an internal route whose path carries
 *    everything the HTML depends on (origin, market, locale, the Site's catalog version,
 *    handle). When the key cannot be had, it is rendered on request;
 * 4. every other page is rendered on request, under a Content-Security-Policy with a fresh
 *    nonce (pageWithNonce). A kept product page carries a policy of its own, made from its
 *    HTML when it was kept (lib/security/page-cache-handler.mjs).
 */
export async function shopDocument(
  req: NextRequest,
  path: string,
  busy: (req: NextRequest, seconds: number) => Response,
): Promise<Response> {
  const wait = shopperWait(req, path);
  if (wait !== null) {
    const page = busy(req, wait);
    for (const [name, value] of Object.entries(transportSecurity(req))) page.headers.set(name, value);
    return page;
  }
  if (await shopPageDuringOutage(path)) {
    return pageWithNonce(req, { status: 503, headers: { 'Retry-After': '5', 'Cache-Control': 'no-store' } });
  }
  const handle = PRODUCT_PAGE.exec(path)?.[1];
  return handle ? productPage(req, handle) : pageWithNonce(req);
}

/**
 * Product handles are slugs. Anything else under /products/ — the catalog's images in
 * public/products/*.svg above all — is left alone; a handle of another shape (dots,
 * capitals, non-ASCII) still works, rendered on request.
 */
const PRODUCT_PAGE = /^\/products\/([a-z0-9][a-z0-9-]{0,199})$/;

async function productPage(req: NextRequest, handle: string): Promise<Response> {
  const html = isHtmlRequest(req);
  // The kept page is read with the key when it can be (one request to a database over a network).
  const found = await productPageKeyAndPage(req, html ? handle : null);
  if (!found) return pageWithNonce(req);
  noteApiAnswered();
  const { key } = found;
  if (html) {
    const stored = await storedPageAnswer(key, handle, transportSecurity(req), found.page);
    if (stored) return stored;
  }
  // From req.url, not req.nextUrl: NextURL spells 127.0.0.1 as "localhost", and the
  // router takes a rewrite to another origin for a request to another server.
  const target = new URL(req.url);
  target.pathname = cachedProductPath(key, handle);
  // No shared cache may keep the answer (PAGE_CACHE_CONTROL), and a browser asks again,
  // exactly as for the page rendered on request. Next leaves a Cache-Control it finds on
  // the response.
  return NextResponse.rewrite(target, { headers: { 'Cache-Control': PAGE_CACHE_CONTROL, ...transportSecurity(req) } });
}

/**
 * A GET for the page's HTML, not the router's fetch of its React payload (client-side
 * navigation and prefetch: the `RSC` header or the `_rsc` parameter, which the proxy sees
 * because next.config.mjs skips its URL normalisation). Only HTML is kept in the database.
 */
function isHtmlRequest(req: NextRequest): boolean {
  return (
    req.method === 'GET' && !req.headers.has('rsc') && !req.headers.has('next-router-prefetch') && !req.nextUrl.searchParams.has('_rsc')
  );
}

/**
 * Paths the matcher sends here that are no storefront document: the API (its headers come
 * from next.config.mjs), the API reference (its route sets its own policy), the shop's JSON
 * endpoints, the deployment's own routes (/api/cron, /healthz, /readyz, /metrics) and the framework's
 * files. They only get here for the percent-encoding check.
 */
const NOT_A_DOCUMENT = /^\/(?:site\/v1(?:\/|$)|docs(?:\/|$)|shop-api\/|api\/|healthz$|readyz$|metrics$|_next\/)/;

export function isDocumentPath(path: string): boolean {
  return !NOT_A_DOCUMENT.test(path);
}

/**
 * A page rendered on request gets a fresh nonce in its Content-Security-Policy. The policy
 * also goes on the request: Next reads the nonce from there and puts it on every script it
 * emits. (Never on the rewrite to a cached page: a nonce must not end up in shared HTML.)
 */
function pageWithNonce(req: NextRequest, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64');
  const policy = noncePolicy(nonce, { development: env().NODE_ENV === 'development' });
  const headers = new Headers(req.headers);
  headers.set('Content-Security-Policy', policy);
  return NextResponse.next({
    request: { headers },
    status: init.status,
    headers: { ...init.headers, 'Content-Security-Policy': policy, ...transportSecurity(req) },
  });
}

/**
 * HSTS on pages when the shop is reached over HTTPS: the TLS-terminating proxy says so in
 * X-Forwarded-Proto (next.config.mjs covers every other answer that way), or the configured
 * public origin is https. A browser ignores the header on a plain-HTTP answer, so a forged
 * X-Forwarded-Proto cannot pin anyone to HTTPS.
 */
export function transportSecurity(req: NextRequest): Record<string, string> {
  const forwardedHttps = /^\s*https\s*(,|$)/i.test(req.headers.get('x-forwarded-proto') ?? '');
  const publicHttps = env().STOREFRONT_ORIGIN?.startsWith('https:') ?? false;
  return forwardedHttps || publicHttps ? { 'Strict-Transport-Security': HSTS } : {};
}

/**
 * While the API does not answer, a shop page still renders — its layout says the shop
 * cannot be loaded — but as 503 with Retry-After, so monitors and crawlers see the outage.
 * Next fixes the status before the page renders and offers a page no way to choose 503, so
 * it is set here (and a product page is not taken from the page cache meanwhile).
 */
async function shopPageDuringOutage(path: string): Promise<boolean> {
  return SHOP_PAGE.test(path) && !(await siteApiAnswers());
}

/**
 * A shopper the API has just refused for their own read budget (lib/site-client/shopper-limits.ts):
 * seconds until they may read again, for a shop page they GET, or post a form to without
 * JavaScript (the page would be rendered after the form's action, only to fail); else null.
 * A form posted by the page's script (Next-Action) is its action's to answer: it says how
 * long to wait in the form. The shopper is named as the pages name them to the API
 * (lib/shopper-address.ts).
 */
function shopperWait(req: NextRequest, path: string): number | null {
  const pageRequest = req.method === 'GET' || req.method === 'HEAD' || (req.method === 'POST' && !req.headers.has('next-action'));
  if (!pageRequest || !SHOP_PAGE.test(path)) return null;
  return shopperLimitedFor(shopperAddress(req.headers, env().TRUSTED_PROXY_HOPS));
}

function notFound(): Response {
  return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
