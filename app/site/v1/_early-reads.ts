import type { RouteHandler } from '@/lib/http/route';
import * as site from './site/route';
import * as storefront from './commerce/storefront/route';
import * as catalog from './commerce/catalog/route';
import * as products from './commerce/products/route';
import * as product from './commerce/products/[handle]/route';
import * as collections from './commerce/collections/route';
import * as collection from './commerce/collections/[handle]/route';
import * as availability from './commerce/availability/route';
import * as variantAvailability from './commerce/availability/[variantId]/route';
import * as checkoutSession from './commerce/checkout-sessions/[id]/route';
import * as addressSuggestions from './commerce/checkout-sessions/[id]/address-suggestions/route';

/**
 * The API's reads, answered by the proxy (proxy.ts) with their own route's handler, before
 * Next routes the request. Next's proxy answers a request in about two thirds of the time its
 * router takes to reach a route handler (docs/performance.md), and for a cached read that
 * routing was most of the work. Same handler, same answer: only the way in is shorter.
 *
 * Only GET and HEAD, and only without a body (the proxy's matcher, in proxy.ts, leaves out
 * requests with a Content-Length or Transfer-Encoding): Next copies the body of a request
 * that passes its proxy, up to 10 MB in memory, before the route reads it with its own cap.
 * Every other method, and a read with a body, goes on to the route itself.
 */
const READS: ReadonlyArray<readonly [path: string, route: { GET: RouteHandler; HEAD: RouteHandler }]> = [
  ['site', site],
  ['commerce/storefront', storefront],
  ['commerce/catalog', catalog],
  ['commerce/products', products],
  ['commerce/products/[handle]', product],
  ['commerce/collections', collections],
  ['commerce/collections/[handle]', collection],
  ['commerce/availability', availability],
  ['commerce/availability/[variantId]', variantAvailability],
  ['commerce/checkout-sessions/[id]', checkoutSession],
  ['commerce/checkout-sessions/[id]/address-suggestions', addressSuggestions],
];

const PREFIX = '/site/v1/';

/** The route folders below /site/v1 whose GET the proxy answers (for the tests). */
export const EARLY_READ_ROUTES: readonly string[] = READS.map(([path]) => path);

/** A route folder's path as a proxy matcher source: `commerce/products/[handle]` → `/site/v1/commerce/products/:handle`. */
export function matcherSourceOf(route: string): string {
  return PREFIX + route.replace(/\[(\w+)\]/g, ':$1');
}

type Read = { route: { GET: RouteHandler; HEAD: RouteHandler }; segments: readonly (string | { param: string })[] };

const byPath = new Map<string, Read['route']>();
const dynamicReads: Read[] = [];
for (const [path, route] of READS) {
  if (!path.includes('[')) byPath.set(PREFIX + path, route);
  else dynamicReads.push({ route, segments: path.split('/').map((s) => (/^\[\w+\]$/.test(s) ? { param: s.slice(1, -1) } : s)) });
}

/**
 * The answer to a read the proxy takes, or undefined to let Next route the request. `path`
 * is the request's pathname, already known to be validly percent-encoded; a dynamic segment
 * reaches the handler decoded, as Next passes it.
 */
export function earlyRead(req: Request, path: string): Promise<Response> | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  const fixed = byPath.get(path);
  if (fixed) return fixed[req.method](req, NO_PARAMS);
  if (!path.startsWith(PREFIX)) return undefined;
  const segments = path.slice(PREFIX.length).split('/');
  for (const read of dynamicReads) {
    const params = paramsOf(read.segments, segments);
    if (params) return read.route[req.method](req, { params: Promise.resolve(params) });
  }
  return undefined;
}

const NO_PARAMS = { params: Promise.resolve({}) };

function paramsOf(pattern: Read['segments'], segments: string[]): Record<string, string> | null {
  if (pattern.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i]!;
    const got = segments[i]!;
    if (typeof want === 'string') {
      if (want !== got) return null;
    } else {
      if (got === '') return null;
      try {
        params[want.param] = decodeURIComponent(got);
      } catch {
        return null; // not reached: the proxy has answered a malformed path already (step 1)
      }
    }
  }
  return params;
}
