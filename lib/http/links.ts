/**
 * Every URL an answer carries is absolute (image URLs, a session's hosted checkout). The
 * catalog and the Sites keep them as paths of this deployment (`/products/mug.svg`,
 * `/checkout`), so one database serves any origin; the answer puts the public origin in
 * front: STOREFRONT_ORIGIN when it is set, else the origin the request came in on.
 */

/** The fields that hold links; every other string is left as it is. */
const LINK_FIELDS = new Set(['url', 'checkoutUrl']);

/** A path of this deployment ("/…", not "//host/…"), which an origin makes absolute. */
function isLocalPath(value: string): boolean {
  return value.startsWith('/') && !value.startsWith('//');
}

/** JSON text of `body` with every link field made absolute against `origin`. */
export function stringifyWithLinks(body: unknown, origin: string): string {
  return JSON.stringify(body, (key, value) => (LINK_FIELDS.has(key) && typeof value === 'string' && isLocalPath(value) ? origin + value : value));
}

/** The origin links are built from: the configured public origin, else the request's own. */
export function publicOrigin(req: Request, configured: string | undefined): string {
  // req.url, not Next's nextUrl, which spells 127.0.0.1 as "localhost"
  return configured ?? new URL(req.url).origin;
}
