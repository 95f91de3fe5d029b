/**
 * Every URL an answer carries is absolute (image URLs, a session's hosted checkout). The
 * catalog and the Sites keep them as paths of this deployment (`/products/mug.svg`,
 * `/checkout`), so one database serves any origin; the answer puts the public origin in
 * front: STOREFRONT_ORIGIN when it is set, else the origin the request came in on.
 */

/**
 * A link field holding a path of this deployment ("/…", not "//host/…"), in JSON text. It
 * cannot match inside a string: a quote there is always escaped (`\"`), so `"url":"` is a
 * key and its string value.
 */
const LOCAL_LINK = /"(url|checkoutUrl)":"\/(?!\/)/g;

/**
 * JSON text of `body` with every link field (`url`, `checkoutUrl`) made absolute against
 * `origin`. Put into the text rather than by a replacer: JSON.stringify calls a replacer for
 * every value of the answer, and that cost a product's answer more than the rest of its
 * serialising.
 */
export function stringifyWithLinks(body: unknown, origin: string): string {
  const text = JSON.stringify(body) as string | undefined;
  if (text === undefined) return text as unknown as string;
  const prefix = JSON.stringify(origin).slice(1, -1);
  return text.replace(LOCAL_LINK, (_, key: string) => `"${key}":"${prefix}/`);
}

const HOST = /^(?:[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The origin links are built from: the configured public origin, else the one the request
 * came in on — its Host header (Next's own request URL names the address the server
 * listens on, not the one the caller used) and X-Forwarded-Proto, as a proxy in front sets
 * them. Whatever a caller puts there only shapes the links of its own answer.
 */
export function publicOrigin(req: Request, configured: string | undefined): string {
  if (configured) return configured;
  const host = req.headers.get('host');
  const proto = req.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  // req.url, not Next's nextUrl, which spells 127.0.0.1 as "localhost". A Request holds it
  // serialised (scheme://host/path…, never credentials), so its scheme and host are read off
  // it, not parsed again with the query (an availability batch's is ~2.5 KB).
  const url = req.url;
  const afterScheme = url.indexOf('://') + 3;
  const pathAt = url.indexOf('/', afterScheme);
  const scheme = proto === 'https' || proto === 'http' ? proto : url.slice(0, afterScheme - 3);
  return `${scheme}://${host && HOST.test(host) ? host.toLowerCase() : url.slice(afterScheme, pathAt === -1 ? undefined : pathAt)}`;
}
