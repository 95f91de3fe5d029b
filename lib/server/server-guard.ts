import { randomBytes } from 'node:crypto';
import { Server, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { operations } from '@/lib/contract/operations';
import { allowedMethods } from '@/lib/http/methods';
import { PROBLEMS } from '@/lib/contract/problems';
import { PEER_HEADER, peerHeaderValue, peerStamp, setPeerStamp } from '@/lib/shopper-address';
import { PROBLEM_TYPE_BASE, problemResponse } from '@/lib/contract/problem-answers';
import { requestIdFrom } from '@/lib/http/request-id';
import { RenderGate } from './render-gate';
import { isQueriedListPage, PagePacer } from './page-pacer';
import { SHOP_PAGE } from '@/lib/storefront/routing';
import { availableParallelism } from 'node:os';
import { isIP } from 'node:net';

const servers = new Set<Server>();

/** The HTTP servers of this process that have taken a connection (to close them on shutdown). */
export function servingServers(): ReadonlySet<Server> {
  return servers;
}

/**
 * The one hook on the HTTP server's own 'request' event — the only code of ours that runs
 * before Next turns a request into a WHATWG Request:
 *
 * - A request target that is no path (`*`, or `http://host/path`) is answered or made a path
 *   here (originTarget): Next's router fails on `*` with a 500 and a stack.
 * - With tracing on, every request's trace is kept or dropped here, before Next's first span
 *   (`decideTrace`, lib/platform/observability/otel-sdk.ts): a kept one is handed to Next
 *   in the context that says so.
 * - Every request gets the socket's address in PEER_HEADER (stamped with a per-process
 *   secret, replacing any header of that name the client sent), because Next gives route
 *   code no way to the socket (lib/shopper-address.ts).
 * - A method no path serves (TRACE, and the WebDAV and other methods Node parses: PROPFIND,
 *   PURGE, LOCK…) answers 405 on every path. That constructor throws for TRACE, so Next
 *   answered a bare 500 and logged a stack; for the others it answered an empty 400.
 * - A body sent to a page (a server action, or a form posted to it) must say its length
 *   (411 if not) and be at most PAGE_BODY_LIMIT (413 if not). Next counts an action's body
 *   as it streams in, but past its limit it answers 500 and still drains the whole upload.
 *   The API and the shop's endpoints read their bodies with a cap of their own.
 * - Shop pages pass a RenderGate: at most PAGE_RENDERS render at once, the rest wait in
 *   line, and past a full line the answer is 503 with Retry-After (lib/server/render-gate.ts).
 *   A list page asked with a query (search, sort, filters) first waits for its shopper's
 *   share of time (lib/server/page-pacer.ts): a visitor looping on them holds the process
 *   for at most a quarter of the time.
 *   The API is never held: the pages' own reads of it must go through.
 */
export function guardServer(settings: {
  pageRenders?: number;
  pageRenderLine: number;
  pageRendersPerShopper?: number;
  listPagesShare?: number;
  trustedHops?: number;
  /**
   * Decides the request's trace before Next sees it (otel-sdk.ts, with the default sampler):
   * how to hand a kept one to Next, or undefined.
   */
  decideTrace?: (headers: IncomingMessage['headers']) => (<T>(work: () => T) => T) | undefined;
}): void {
  const proto = Server.prototype as Server & { [PATCHED]?: true };
  if (proto[PATCHED]) return;
  proto[PATCHED] = true;
  if (!peerStamp()) setPeerStamp(randomBytes(18).toString('base64url'));
  const stamp = peerStamp()!;
  const gate = new RenderGate(
    settings.pageRenders ?? 2 * availableParallelism(),
    settings.pageRenderLine,
    settings.pageRendersPerShopper ?? PAGE_RENDERS_PER_SHOPPER,
  );
  const pacer = new PagePacer(settings.listPagesShare ?? LIST_PAGE_SHARE, LIST_PAGE_BURST_MS, LIST_PAGE_MAX_WAIT_MS);
  const emit = proto.emit;
  proto.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'connection') servers.add(this);
    if (event === 'request') {
      const [req, res] = args as [IncomingMessage, ServerResponse];
      req.headers[PEER_HEADER] = peerHeaderValue(stamp, req.socket?.remoteAddress, req.headers['x-forwarded-for'] !== undefined);
      const inTrace = settings.decideTrace?.(req.headers);
      const forward = () => Reflect.apply(emit, this, [event, ...args]) as boolean;
      const handOver = inTrace ? () => inTrace(forward) : forward;
      if (req.url?.[0] !== '/') {
        const target = originTarget(req.method ?? 'GET', req.url ?? '');
        if ('status' in target) {
          refuse(req, res, target);
          return true;
        }
        req.url = target.path;
        req.headers.host = target.host;
      }
      if (!SERVED_METHODS.has(req.method ?? '')) {
        void answerUnserved(req, res);
        return true;
      }
      const reading = req.method === 'GET' || req.method === 'HEAD';
      const refusal = longUrlRefusal(req) ?? (reading ? null : bodyRefusal(req));
      if (refusal) {
        refuse(req, res, refusal);
        return true;
      }
      if (reading && isRenderedPage(req.url ?? '/')) {
        const shopper = shopperOf(req, settings.trustedHops ?? 0);
        const admit = (start: () => void) => {
          if (!gate.admit(req, res, start, shopper, () => refuse(req, res, busy()))) refuse(req, res, busy());
        };
        const render = handOver;
        const turn = shopper !== null && isQueriedListPage(req.url ?? '/') ? pacer.reserve(shopper) : undefined;
        if (turn === undefined) admit(render);
        else if (turn === null) refuse(req, res, busy());
        else {
          let began: number | null = null;
          // Settled when the answer ends, rendered or not (refused, or its client gone while it waited).
          res.once('close', () => turn.settle(began === null ? 0 : performance.now() - began));
          const paced = () => {
            began = performance.now();
            render();
          };
          if (turn.wait === 0) admit(paced);
          else
            setTimeout(() => {
              if (!req.socket?.destroyed && !res.destroyed) admit(paced);
            }, turn.wait).unref();
        }
        return true;
      }
      return handOver();
    }
    if (event === 'clientError') {
      const [error, socket] = args as [Error & { code?: string }, Duplex];
      if (error.code === 'HPE_HEADER_OVERFLOW' && socket.writable) {
        socket.end(rawAnswer(431, headersTooLarge()));
        return true;
      }
    }
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  } as typeof proto.emit;
}

/**
 * Shop pages of one shopper rendering or in line at once (PAGE_RENDERS_PER_SHOPPER): a visitor
 * looping on expensive pages (a search with a new price each time) from many connections
 * holds two places, not the gate.
 */
const PAGE_RENDERS_PER_SHOPPER = 2;

/**
 * One shopper's list pages asked with a query (search, sort, filters: rendered every time)
 * take at most this share of the process's time (LIST_PAGES_SHARE_PER_SHOPPER) after a first
 * second at full speed, each waiting its turn for at most 5 s, else 503
 * (lib/server/page-pacer.ts).
 */
const LIST_PAGE_SHARE = 0.25;
const LIST_PAGE_BURST_MS = 1000;
const LIST_PAGE_MAX_WAIT_MS = 5000;

/**
 * The shopper a page request comes from, as the storefront names them to the API
 * (shopperAddress): the socket's address, or behind `trustedHops` proxies the address the
 * outermost one saw. IPv6 addresses count per /64, as the API's shopper budgets do.
 */
export function shopperOf(req: Pick<IncomingMessage, 'headers' | 'socket'>, trustedHops: number): string | null {
  let address = req.socket?.remoteAddress;
  if (trustedHops > 0) {
    const header = req.headers['x-forwarded-for'];
    const listed = typeof header === 'string' ? header.split(',').map((a) => a.trim()) : [];
    const chain = [...listed, address ?? ''];
    address = chain[chain.length - 1 - trustedHops] ?? address;
  }
  if (!address || isIP(address) === 0) return null;
  if (address.startsWith('::ffff:') && isIP(address.slice(7)) === 4) return address.slice(7);
  if (isIP(address) === 6) {
    const [head = '', tail = ''] = address.split('::');
    const left = head ? head.split(':') : [];
    const right = tail ? tail.split(':') : [];
    const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
    return `${groups
      .slice(0, 4)
      .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
      .join(':')}::/64`;
  }
  return address;
}

/**
 * The longest request target taken (bytes). Node refuses a request line and headers past
 * 16 KiB together before any code runs (the clientError above answers that); below that, a
 * target longer than this is refused here, with the problem the API documents.
 */
export const MAX_URL_BYTES = 12 * 1024;

/** Exported for the tests: the refusal of an over-long request target, or null. */
export function longUrlRefusalFor(url: string, requestIdHeader?: string): Answer | null {
  if (url.length <= MAX_URL_BYTES) return null;
  return problemAnswer(
    'uri_too_long',
    `The request target may be at most ${MAX_URL_BYTES} bytes; send long lists in several requests.`,
    requestIdHeader,
  );
}

/** A problem+json answer written before Next has a Response to offer (problemResponse's, as plain data). */
function problemAnswer(code: 'uri_too_long' | 'not_found', detail: string, requestIdHeader: string | undefined): Answer {
  const { status, title } = PROBLEMS[code];
  const requestId = requestIdFrom(requestIdHeader);
  const body = JSON.stringify({ type: `${PROBLEM_TYPE_BASE}${code.replaceAll('_', '-')}`, title, status, code, requestId, detail });
  return { status, headers: { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store', 'X-Request-Id': requestId }, body };
}

function longUrlRefusal(req: IncomingMessage): Answer | null {
  const header = req.headers['x-request-id'];
  return longUrlRefusalFor(req.url ?? '', typeof header === 'string' ? header : undefined);
}

/** Every method some path serves: what `OPTIONS *` answers. */
const SERVER_METHODS = allowedMethods([...new Set(['GET', 'POST', ...operations.map((op) => op.method.toUpperCase())]), 'OPTIONS']).join(
  ', ',
);

/**
 * Exported for the tests: a request target that is not a path, as the path and host to serve
 * it under, or the answer. The asterisk form asks about the server as a whole: `OPTIONS *`
 * is 204 with every method some path serves, any other method with `*` a 400. The absolute
 * form (`http://host/path?query`, what clients send to a proxy) is served as its path, its
 * host taking the place of Host, as RFC 9112 (3.2.2) asks of an origin server. Anything
 * else is a 400.
 */
export function originTarget(method: string, target: string): { path: string; host: string } | Answer {
  if (target === '*' && method === 'OPTIONS')
    return { status: 204, headers: { Allow: SERVER_METHODS, 'Cache-Control': 'no-store' }, body: '' };
  if (/^https?:\/\//i.test(target)) {
    try {
      const url = new URL(target);
      if (url.host) return { path: `${url.pathname}${url.search}`, host: url.host };
    } catch {
      // answered below
    }
  }
  return {
    status: 400,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
    body: 'The request target must be a path (or, for OPTIONS, *).',
  };
}

/** The headers were never parsed, so the request id is a new one. */
function headersTooLarge(): Answer {
  const requestId = requestIdFrom(undefined);
  const body = JSON.stringify({
    type: `${PROBLEM_TYPE_BASE}request-header-fields-too-large`,
    title: 'Request header fields too large',
    status: 431,
    code: 'request_header_fields_too_large',
    requestId,
    detail: 'The request line and headers may be at most 16 KiB together.',
  });
  return {
    status: 431,
    headers: { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store', 'X-Request-Id': requestId },
    body,
  };
}

/** An answer written straight to a socket the HTTP parser has given up on. */
function rawAnswer(status: number, answer: Answer): string {
  const reason = status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
  const head = Object.entries({ ...answer.headers, 'Content-Length': String(Buffer.byteLength(answer.body)), Connection: 'close' })
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n');
  return `HTTP/1.1 ${status} ${reason}\r\n${head}\r\n\r\n${answer.body}`;
}

type Answer = { status: number; headers: Record<string, string>; body: string };

const PATCHED = Symbol.for('site-delivery.server-guard');

/** /site/v1 paths, as patterns, with the methods the contract serves on each. */
const API_PATHS: { pattern: RegExp; allow: string }[] = (() => {
  const byPath = new Map<string, string[]>();
  for (const op of operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op.method.toUpperCase()]);
  const out = [...byPath].map(([path, methods]) => ({
    pattern: new RegExp(`^/site/v1${path.replace(/\{\w+\}/g, '[^/]+')}/?$`),
    allow: allowedMethods(methods).join(', '),
  }));
  out.push({ pattern: /^\/site\/v1\/openapi\.json$/, allow: 'GET, HEAD' });
  return out;
})();

/** The methods some path of the service answers; every other one is refused here. */
const SERVED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Exported for the tests: the answer to `method` (one no path serves) on `path`, headers and body. */
export async function unservedMethodAnswer(
  method: string,
  path: string,
  requestIdHeader: string | undefined,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  if (path === '/site/v1' || path.startsWith('/site/v1/')) {
    const requestId = requestIdFrom(requestIdHeader);
    const known = API_PATHS.find((p) => p.pattern.test(path));
    const response = known
      ? problemResponse({
          code: 'method_not_allowed',
          detail: `${method} is not served here. Allowed: ${known.allow}.`,
          requestId,
          headers: { Allow: known.allow, 'X-Request-Id': requestId },
        })
      : problemResponse({ code: 'not_found', detail: 'No such operation.', requestId, headers: { 'X-Request-Id': requestId } });
    return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
  }
  const headers = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };
  if (path === '/shop-api' || path.startsWith('/shop-api/')) {
    // The shop's own endpoints answer a problem with a code, as for any other refusal.
    const body = JSON.stringify({
      type: 'about:blank',
      title: 'Method not allowed',
      status: 405,
      code: 'method_not_allowed',
      detail: `${method} is not served here.`,
    });
    return { status: 405, headers: { ...headers, Allow: 'GET, HEAD, POST', 'Content-Type': 'application/problem+json' }, body };
  }
  // Pages (the shop's and the API reference): a plain page, as browsers show other errors.
  const allow = path === '/docs' || path.startsWith('/docs/') ? 'GET, HEAD' : 'GET, HEAD, POST';
  return {
    status: 405,
    headers: { ...headers, Allow: allow, 'Content-Type': 'text/html; charset=utf-8' },
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>405 Method not allowed</title></head><body><h1>Method not allowed</h1><p>This address does not answer ${method}.</p></body></html>`,
  };
}

/** The shop's forms and server actions send a few hundred bytes; Next's own limit is set to the same. */
export const PAGE_BODY_LIMIT = 32 * 1024;

/** Paths whose handlers read bodies with their own cap (lib/http/body-limit.ts). */
const CAPPED_READERS = /^\/(?:site\/v1|shop-api)(?:\/|$)/;

/** Exported for the tests: the refusal of a body sent to a page, or null to let it through. */
export function pageBodyRefusal(
  method: string,
  path: string,
  contentLength: string | undefined,
): { status: number; headers: Record<string, string>; body: string } | null {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || CAPPED_READERS.test(path)) return null;
  const length = contentLength === undefined ? NaN : Number(contentLength);
  if (Number.isInteger(length) && length <= PAGE_BODY_LIMIT) return null;
  const [status, title] = Number.isInteger(length) ? [413, 'Content too large'] : [411, 'Length required'];
  return {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${status} ${title}</title></head><body><h1>${title}</h1><p>A page takes a body of at most ${PAGE_BODY_LIMIT} bytes, with its Content-Length.</p></body></html>`,
  };
}

function bodyRefusal(req: IncomingMessage): Answer | null {
  const path = pathOf(req);
  const header = req.headers['x-request-id'];
  return (
    pageBodyRefusal(req.method ?? 'GET', path, req.headers['content-length']) ??
    malformedPathRefusalFor(path, typeof header === 'string' ? header : undefined)
  );
}

/**
 * Exported for the tests: the answer to a body sent to the API or the shop's endpoints at a
 * path that is not valid percent-encoding, or null. Next's router answers such a path a bare
 * 500; the proxy answers it 404 (proxy.ts), but the proxy does not run for these paths when a
 * body comes with the request, because Next would first copy the body for it (up to 10 MB in
 * memory, and read all of it). So they are answered here, as the proxy would.
 */
export function malformedPathRefusalFor(path: string, requestIdHeader?: string): Answer | null {
  if (!path.includes('%') || !CAPPED_READERS.test(path)) return null;
  try {
    decodeURIComponent(path);
    return null;
  } catch {
    // answered below
  }
  if (!path.startsWith('/site/v1')) return { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: 'Not found' };
  return problemAnswer('not_found', 'No resource has that name (the path is not validly percent-encoded).', requestIdHeader);
}

/** A shop page (not one of its files: public/products/*.svg and the like have an extension). */
export function isRenderedPage(target: string): boolean {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  return SHOP_PAGE.test(path) && !/\.[A-Za-z0-9]{1,8}$/.test(path);
}

function busy(): Answer {
  return {
    status: 503,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': '2' },
    body: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>503 Busy</title></head><body><h1>The shop is busy</h1><p>Too many pages are being prepared right now. Please try again in a moment.</p></body></html>',
  };
}

function pathOf(req: IncomingMessage): string {
  try {
    return new URL(req.url ?? '/', 'http://localhost').pathname;
  } catch {
    // an unparseable target gets the page answers
    return '/';
  }
}

async function answerUnserved(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = pathOf(req);
  const header = req.headers['x-request-id'];
  const answer = await unservedMethodAnswer(req.method ?? 'TRACE', path, typeof header === 'string' ? header : undefined).catch(() => null);
  refuse(req, res, answer ?? { status: 500, headers: {}, body: '' });
}

/**
 * What a sender still sends after the answer is read and dropped, so it sees the answer
 * (hanging up at once would reset the connection under it, answer unread); past this much,
 * reading stops and our side of the connection is closed: the sender's writes then wait,
 * and it reads the answer when it gets to it. One that never does is hung up on after
 * DRAIN_GRACE_MS.
 */
const DRAIN_BYTES = 64 * 1024 * 1024;
const DRAIN_GRACE_MS = 10_000;

function refuse(req: IncomingMessage, res: ServerResponse, answer: { status: number; headers: Record<string, string>; body: string }) {
  let drained = 0;
  const drain = (chunk: Buffer) => {
    drained += chunk.byteLength;
    if (drained <= DRAIN_BYTES) return;
    // Not destroy(): closing on unread data resets the connection, and a sender busy writing
    // may not have read the answer yet (seen on a loaded host).
    req.off('data', drain);
    req.pause();
    req.socket.end();
    setTimeout(() => req.socket.destroy(), DRAIN_GRACE_MS).unref();
  };
  req.on('data', drain);
  req.on('error', () => {});
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
}
