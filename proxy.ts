import { NextResponse, type NextRequest } from 'next/server';
import { problemResponse } from '@/lib/contract/problem-answers';
import { requestIdFor } from '@/lib/http/request-id';
import { siteApiAnswers } from '@/lib/site-client/health';
import { productPageKey } from '@/lib/storefront-page-key';
import { PAGE_CACHE_CONTROL, storedPageAnswer } from '@/lib/storefront-page-store';
import { CACHED_PAGES_PREFIX, cachedProductPath, LOCALE_COOKIE, SHOP_PAGE } from '@/lib/storefront-routing';
import { shopperLimitedFor } from '@/lib/site-client/shopper-limits';
import { shopperAddress } from '@/lib/shopper-address';
import { dictionary, fill, uiLanguage } from '@/app/(storefront)/_lib/i18n';
import { API_POLICY, HSTS, noncePolicy } from '@/lib/security/content-security-policy.mjs';
import { env } from '@/lib/env';
import { earlyRead } from '@/app/site/v1/_early-reads';

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
 * 2. The API's reads (GET and HEAD without a body) are answered here by their own route's
 *    handler, which spares them most of Next's routing (app/site/v1/_early-reads.ts).
 * 3. A product page is served as kept: from the database, when a page for its key was
 *    rendered before (by any instance), else from Next's page cache, through a rewrite to an
 *    internal route whose path carries everything the HTML depends on (origin, market,
 *    locale, the Site's catalog version, handle). A catalog change made on any instance is
 *    a new key on the very next request, everywhere. When the key cannot be had, the
 *    request goes on to the page rendered on request, exactly as without this step.
 * 4. The internal route is reachable only through that rewrite, so nobody can fill the
 *    cache with keys of their own making.
 * 5. Every other page is rendered on request, under a Content-Security-Policy with a fresh
 *    nonce (see pageWithNonce). A cached product page carries a policy of its own, made from
 *    its HTML when it was cached (lib/security/page-cache-handler.mjs).
 */
export async function proxy(req: NextRequest): Promise<Response | undefined> {
  const path = new URL(req.url).pathname;
  try {
    decodeURIComponent(path);
  } catch {
    const requestId = requestIdFor(req);
    if (path.startsWith('/site/v1/')) {
      return problemResponse({
        code: 'not_found',
        detail: 'No resource has that name (the path is not validly percent-encoded).',
        requestId,
        headers: { 'X-Request-Id': requestId },
      });
    }
    return notFound();
  }

  const read = earlyRead(req, path);
  if (read) return read;

  if (path === CACHED_PAGES_PREFIX || path.startsWith(`${CACHED_PAGES_PREFIX}/`)) return notFound();

  if (!isDocumentPath(path)) return undefined;
  const wait = shopperWait(req, path);
  if (wait !== null) return tooManyRequests(req, wait);
  if (await shopPageDuringOutage(path)) {
    return pageWithNonce(req, { status: 503, headers: { 'Retry-After': '5', 'Cache-Control': 'no-store' } });
  }

  const handle = PRODUCT_PAGE.exec(path)?.[1];
  if (handle) {
    const key = await productPageKey(req);
    if (!key) return pageWithNonce(req);
    if (isHtmlRequest(req)) {
      const stored = await storedPageAnswer(key, handle, transportSecurity(req));
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
  return pageWithNonce(req);
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

function isDocumentPath(path: string): boolean {
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
function transportSecurity(req: NextRequest): Record<string, string> {
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

/** 429 with the API's Retry-After, at once: a plain page in the shopper's language, nothing rendered. */
function tooManyRequests(req: NextRequest, seconds: number): Response {
  const lang = uiLanguage(req.cookies.get(LOCALE_COOKIE)?.value ?? 'en');
  const t = dictionary(lang);
  const text = fill(t.busyText, { seconds });
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${t.busyTitle}</title></head><body><main><h1>${t.busyTitle}</h1><p>${text}</p></main></body></html>`;
  return new Response(html, {
    status: 429,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Retry-After': String(seconds),
      'Content-Security-Policy': API_POLICY,
      ...transportSecurity(req),
    },
  });
}

function notFound(): Response {
  return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

// Every path but the API, the API reference, the shop's JSON endpoints, the benchmark's
// reference routes (a ceiling must not pay for the proxy), the framework's
// files and the catalog's images (whose names end in .svg) — unless its percent-encoding
// needs checking (step 1). And the API's reads (step 2) when the request has no body: Next
// would copy a body in memory for the proxy. (For the same reason a body sent to the API or
// the shop's endpoints skips step 1 too; the server guard answers a malformed path then.)
// Next reads this object as written (no names, no calls), so every read is spelled out;
// test/early-reads.test.ts keeps them equal to the reads' list.
export const config = {
  matcher: [
    '/((?!site/v1/|shop-api/).*%.*)',
    {
      source: '/((?:site/v1|shop-api)/.*%.*)',
      missing: [
        { type: 'header', key: 'content-length' },
        { type: 'header', key: 'transfer-encoding' },
      ],
    },
    '/((?!site/v1(?:/|$)|docs(?:/|$)|shop-api/|api/|healthz$|readyz$|metrics$|_next/|bench-|products/[^/]*\\.svg$|robots\\.txt$|sitemap\\.xml$).*)',
    {
      source: '/site/v1/site',
      missing: [
        { type: 'header', key: 'content-length' },
        { type: 'header', key: 'transfer-encoding' },
      ],
    },
    {
      source: '/site/v1/commerce/storefront',
      missing: [
        { type: 'header', key: 'content-length' },
        { type: 'header', key: 'transfer-encoding' },
      ],
    },
    {
      source: '/site/v1/commerce/catalog',
      missing: [
        { type: 'header', key: 'content-length' },
        { type: 'header', key: 'transfer-encoding' },
      ],
    },
    {
      source: '/site/v1/commerce/products',
      missing: [
        { type: 'header', key: 'content-length' },
        { type: 'header', key: 'transfer-encoding' },
      ],
    },
    {
      source: '/site/v1/commerce/products/:handle',
      missing: [
        { type: 'header', key: 'content-length' },
        { type: 'header', key: 'transfer-encoding' },
      ],
    },
    {
      source: '/site/v1/commerce/collections',
      missing: [
        { type: 'header', key: 'content-length' },
        { type: 'header', key: 'transfer-encoding' },
      ],
    },
    {
      source: '/site/v1/commerce/collections/:handle',
      missing: [
        { type: 'header', key: 'content-length' },
        { type: 'header', key: 'transfer-encoding' },
      ],
    },
    {
      source: '/site/v1/commerce/availability',
      missing: [
        { type: 'header', key: 'content-length' },
        { type: 'header', key: 'transfer-encoding' },
      ],
    },
    {
      source: '/site/v1/commerce/availability/:variantId',
      missing: [
        { type: 'header', key: 'content-length' },
        { type: 'header', key: 'transfer-encoding' },
      ],
    },
    {
      source: '/site/v1/commerce/checkout-sessions/:id',
      missing: [
        { type: 'header', key: 'content-length' },
        { type: 'header', key: 'transfer-encoding' },
      ],
    },
    {
      source: '/site/v1/commerce/checkout-sessions/:id/address-suggestions',
      missing: [
        { type: 'header', key: 'content-length' },
        { type: 'header', key: 'transfer-encoding' },
      ],
    },
  ],
};
