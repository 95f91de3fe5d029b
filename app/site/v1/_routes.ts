import type { RouteHandler } from '@/lib/api/route';
import { credentialCheckOf, handCredentialCheck, type CredentialCheck } from '@/lib/platform/auth/http';
import * as site from './site/route';
import * as storefront from './commerce/storefront/route';
import * as catalog from './commerce/catalog/route';
import * as products from './commerce/products/route';
import * as product from './commerce/products/[handle]/route';
import * as collections from './commerce/collections/route';
import * as collection from './commerce/collections/[handle]/route';
import * as availability from './commerce/availability/route';
import * as variantAvailability from './commerce/availability/[variantId]/route';
import * as checkoutSessions from './commerce/checkout-sessions/route';
import * as checkoutSession from './commerce/checkout-sessions/[id]/route';
import * as addressSuggestions from './commerce/checkout-sessions/[id]/address-suggestions/route';
import * as changeCountry from './commerce/checkout-sessions/[id]/change-country/route';
import * as deliveryOptions from './commerce/checkout-sessions/[id]/delivery-options/route';
import * as preparePayment from './commerce/checkout-sessions/[id]/prepare-payment/route';
import * as stockSubscriptions from './commerce/stock-subscriptions/route';
import * as newsletterSubscriptions from './newsletter/subscriptions/route';
import * as confirmations from './subscriptions/confirmations/route';
import * as withdrawals from './subscriptions/withdrawals/route';
import * as analyticsEvents from './analytics/events/route';
import * as anyOtherPath from './[[...path]]/route';

type Methods = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
export type ApiRoute = Record<Methods, RouteHandler>;

/**
 * Every route folder below /site/v1 that serves an operation, with its module: the one list
 * the proxy's early reads (./_early-reads.ts) and the in-process way in (answerInProcess)
 * take their handlers from. `get`: the folder serves a GET, which the proxy may answer.
 * test/api-routes.test.ts holds it equal to the folders and to the contract's operations.
 */
export const API_ROUTES: ReadonlyArray<{ folder: string; route: ApiRoute; get: boolean }> = [
  { folder: 'site', route: site, get: true },
  { folder: 'commerce/storefront', route: storefront, get: true },
  { folder: 'commerce/catalog', route: catalog, get: true },
  { folder: 'commerce/products', route: products, get: true },
  { folder: 'commerce/products/[handle]', route: product, get: true },
  { folder: 'commerce/collections', route: collections, get: true },
  { folder: 'commerce/collections/[handle]', route: collection, get: true },
  { folder: 'commerce/availability', route: availability, get: true },
  { folder: 'commerce/availability/[variantId]', route: variantAvailability, get: true },
  { folder: 'commerce/checkout-sessions', route: checkoutSessions, get: false },
  { folder: 'commerce/checkout-sessions/[id]', route: checkoutSession, get: true },
  { folder: 'commerce/checkout-sessions/[id]/address-suggestions', route: addressSuggestions, get: true },
  { folder: 'commerce/checkout-sessions/[id]/change-country', route: changeCountry, get: false },
  { folder: 'commerce/checkout-sessions/[id]/delivery-options', route: deliveryOptions, get: false },
  { folder: 'commerce/checkout-sessions/[id]/prepare-payment', route: preparePayment, get: false },
  { folder: 'commerce/stock-subscriptions', route: stockSubscriptions, get: false },
  { folder: 'newsletter/subscriptions', route: newsletterSubscriptions, get: false },
  { folder: 'subscriptions/confirmations', route: confirmations, get: false },
  { folder: 'subscriptions/withdrawals', route: withdrawals, get: false },
  { folder: 'analytics/events', route: analyticsEvents, get: false },
];

export const API_PREFIX = '/site/v1/';

export { credentialCheckOf, type CredentialCheck };

type Segment = string | { param: string };
const patterns = API_ROUTES.map(({ folder, route, get }) => ({
  route,
  get,
  segments: folder.split('/').map((s): Segment => (/^\[\w+\]$/.test(s) ? { param: s.slice(1, -1) } : s)),
}));
// Paths without a parameter are found at once: they are most of the hot reads.
const isFixed = (p: (typeof patterns)[number]) => p.segments.every((s) => typeof s === 'string');
const fixed = new Map(patterns.filter(isFixed).map((p) => [API_PREFIX + p.segments.join('/'), p]));
const withParams = patterns.filter((p) => !isFixed(p));

/**
 * The route a path names and its parameters (decoded, as Next passes them), or null; with
 * `{ get: true }`, only among the folders that serve a GET. `path` is a pathname below
 * /site/v1/, percent-encoded as it came.
 */
export function apiRouteFor(path: string, only?: { get: true }): { route: ApiRoute; params: Record<string, string> } | null {
  const exact = fixed.get(path);
  if (exact) return !only || exact.get ? { route: exact.route, params: {} } : null;
  if (!path.startsWith(API_PREFIX)) return null;
  const segments = path.slice(API_PREFIX.length).split('/');
  for (const pattern of withParams) {
    if (only && !pattern.get) continue;
    const params = paramsOf(pattern.segments, segments);
    if (params) return { route: pattern.route, params };
  }
  return null;
}

function paramsOf(pattern: readonly Segment[], segments: string[]): Record<string, string> | null {
  if (pattern.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i]!;
    const got = segments[i]!;
    if (typeof want === 'string') {
      if (want !== got) return null;
      continue;
    }
    if (got === '') return null;
    try {
      params[want.param] = decodeURIComponent(got);
    } catch {
      return null;
    }
  }
  return params;
}

/**
 * Answers a request to /site/v1 in this process, by the same route handler Next would
 * route it to: the same credential check, limits, parsing and answer, without a socket,
 * Next's router or a compression. For callers inside this deployment (lib/site-client); a
 * path that names no operation gets the API's own 404.
 *
 * `check`: the credential check of an earlier request of the same caller's unit of work (a
 * page render), used instead of reading the credential again while it is fresh; null asks
 * for this request's own check, which `credentialCheckOf(req)` then answers.
 */
export function answerInProcess(req: Request, check?: CredentialCheck | null): Promise<Response> {
  if (check !== undefined) handCredentialCheck(req, check);
  const found = apiRouteFor(new URL(req.url).pathname);
  const method = req.method as Methods;
  if (!found) return Promise.resolve(anyOtherPath.GET(req));
  return found.route[method](req, { params: Promise.resolve(found.params) });
}
