import { API_ROUTES, apiRouteFor } from './_routes';

/**
 * The API's reads, answered by the proxy (proxy.ts) with their own route's handler, before
 * Next routes the request. Next's proxy answers a request in about two thirds of the time its
 * router takes to reach a route handler (docs/performance.md), and for a cached read that
 * routing was most of the work. Same handler, same answer: only the way in is shorter.
 *
 * Only GET and HEAD, and only without a body (the proxy's matcher, in proxy.ts, leaves out
 * API requests with a Content-Length or Transfer-Encoding): Next copies the body of a request
 * that passes its proxy, up to 10 MB in memory, before the route reads it with its own cap.
 * Every other method, and a read with a body, goes on to the route itself.
 */

/** The route folders below /site/v1 whose GET the proxy answers (for the tests). */
export const EARLY_READ_ROUTES: readonly string[] = API_ROUTES.filter((r) => r.get).map((r) => r.folder);

/**
 * The answer to a read the proxy takes, or undefined to let Next route the request. `path`
 * is the request's pathname, already known to be validly percent-encoded (the proxy has
 * answered a malformed one); a dynamic segment reaches the handler decoded, as Next passes it.
 */
export function earlyRead(req: Request, path: string): Promise<Response> | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  const found = apiRouteFor(path, { get: true });
  return found ? found.route[req.method](req, { params: Promise.resolve(found.params) }) : undefined;
}
