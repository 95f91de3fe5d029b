import type { NextRequest } from 'next/server';
import { tooManyRequests } from '@/app/(storefront)/_lib/busy-page';
import { earlyRead } from '@/app/site/v1/_early-reads';
import { internalPath, isDocumentPath, malformedPath, shopDocument } from '@/lib/storefront/front-door';

/**
 * Every request the matcher (below) sends here, in order (lib/storefront/front-door.ts):
 * 1. a path whose percent-encoding is malformed names nothing: 404;
 * 2. the API's reads (GET and HEAD without a body) are answered by their own route's
 *    handler, which spares them most of Next's routing (app/site/v1/_early-reads.ts);
 * 3. the internal route of kept product pages is not for the asking: 404;
 * 4. a shop page: the shopper's read budget, the API's outage, a kept product page, or a
 *    page rendered on request under a fresh CSP nonce.
 * Anything else goes on to Next's router.
 */
export async function proxy(req: NextRequest): Promise<Response | undefined> {
  const path = new URL(req.url).pathname;
  return (
    malformedPath(req, path) ??
    earlyRead(req, path) ??
    internalPath(path) ??
    (isDocumentPath(path) ? shopDocument(req, path, tooManyRequests) : undefined)
  );
}

// Every path but the API, the API reference, the shop's JSON endpoints, the benchmark's
// reference routes (a ceiling must not pay for the proxy), the framework's
// files and the catalog's images in public/products and public/collections (no page of
// the shop ends in an image's extension; served as they are, even while the API is down or
// the shopper is refused pages) — unless its percent-encoding
// needs checking (step 1). And the API's reads (step 2) when the request has no body: Next
// would copy a body in memory for the proxy. (For the same reason a body sent to the API or
// the shop's endpoints skips step 1 too; the server guard answers a malformed path then.)
// Next reads this object as written (no names, no calls): every API request without a body
// comes through, and step 2 picks the reads out of the API's own route table.
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
    '/((?!site/v1(?:/|$)|docs(?:/|$)|shop-api/|api/|healthz$|readyz$|metrics$|_next/|bench-|(?:products|collections)/[^/]*\\.(?:svg|png|jpe?g|webp|avif|gif)$|robots\\.txt$|sitemap\\.xml$).*)',
    {
      source: '/site/v1/:path+',
      missing: [
        { type: 'header', key: 'content-length' },
        { type: 'header', key: 'transfer-encoding' },
      ],
    },
  ],
};
