import 'server-only';
import { z, ZodError, type ZodType } from 'zod';
import { reportStorageFault, retryAfterSeconds, storageFaultOf, type StorageFault } from '@/db/faults';
import { overNetwork, type Riders } from '@/db';
import { DomainError } from '@/lib/platform/errors';
import { answerCache, answerWeight, BoundedCache, deepFreeze, type Answer } from '@/lib/platform/cache/memo';
import { countStored, keptInDatabase, storeAnswer, storedAnswer } from '@/lib/platform/cache/stored-answers';
import { shopperKeyOf } from '@/lib/platform/rate-limit/store';
import type { Scope, SiteContext } from '@/lib/platform/auth/credentials';
import { authenticate } from '@/lib/platform/auth/http';
import { HttpFailure } from '@/lib/http/failure';
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { CACHE_PROFILES, etagMatches, strongEtag } from '@/lib/platform/cache/http';
import { problemResponse, zodFieldErrors } from '@/lib/contract/problem-answers';
import { requestIdFor } from '@/lib/http/request-id';
import { readJsonBody } from './body';
import { allowedMethods } from '@/lib/http/methods';
import { admitWrite, applyRateLimit, type WriteAdmission } from '@/lib/platform/rate-limit/http';
import { answerOf, commitDeferred, KeyTaken, withIdempotency, type Recorder } from '@/lib/platform/idempotency/http';
import { bodyTextOf } from '@/lib/http/body-text';
import type { Reply } from './reply';
import { publicOrigin, stringifyWithLinks } from '@/lib/http/links';
import { logger } from '@/lib/platform/observability/logger';
import { recordDatabaseUnavailable, recordRequest } from '@/lib/platform/observability/metrics';
import { inSpan, requestParent, SpanKind, tracing } from '@/lib/platform/observability/tracing';

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };
export type RouteHandler = (req: Request, ctx: RouteContext) => Promise<Response>;

type Spec<P extends ZodType, Q extends ZodType, B extends ZodType> = {
  scope: Scope;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * Runs on the parsed JSON before the body schema, for a contract rule that answers its
   * own code rather than `validation_failed` (signups: a missing consent is `consent_required`).
   */
  precheck?: (rawBody: unknown) => void;
  /**
   * The handler writes nothing itself: it returns its writes in `Reply.write`, and the
   * wrapper commits them in one batch with the answer's idempotency record (one write per
   * request instead of claim, work, record).
   */
  deferredWrites?: boolean;
  /**
   * The handler writes once, in one batch that carries `riders` (HandlerInput): the
   * shopper's write budget is then claimed in that batch, not in a request before it
   * (lib/platform/rate-limit/http.ts, admitWrite).
   */
  claimInWrite?: boolean;
};

export type HandlerInput<P extends ZodType, Q extends ZodType, B extends ZodType> = SiteContext & {
  req: Request;
  requestId: string;
  params: z.infer<P>;
  query: z.infer<Q>;
  body: z.infer<B>;
  /**
   * The shopper as named by a server-side caller (Site-Buyer-IP): an IPv4 address or an
   * IPv6 /64 (see shopperKeyOf); limits only.
   */
  buyerIp: string | null;
  /** Statements the handler's one write batch must carry (Spec.claimInWrite), or null. */
  riders: Riders | null;
};

const Empty = z.object({});
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The one wrapper every /site/v1 handler goes through: request id, credential and
 * scope, rate limit, params/query/body validation, idempotency for POST, the handler,
 * ETag/304, caching headers, and problem+json for anything thrown.
 */
export function route<P extends ZodType = typeof Empty, Q extends ZodType = typeof Empty, B extends ZodType = typeof Empty>(
  spec: Spec<P, Q, B>,
  handler: (input: HandlerInput<P, Q, B>) => Promise<Reply>,
): RouteHandler {
  // What the request's log line, metrics and span name it by: the operation and its path's
  // template, never the raw path (specs are the contract's operations).
  const operation = (spec as { operationId?: string }).operationId ?? 'unknown';
  const template = `/site/v1${(spec as { path?: string }).path ?? ''}`;
  const serve = async (req: Request, ctx: RouteContext, trail: Trail): Promise<Response> => {
    const requestId = (trail.requestId = requestIdFor(req));
    const method = req.method.toUpperCase();
    const baseHeaders: Record<string, string> = { 'X-Request-Id': requestId, Vary: 'Authorization' };
    let admission: WriteAdmission | null = null;
    try {
      const auth = await authenticate(req, requestId);
      trail.siteId = auth.site.id;
      if (spec.scope === 'extended' && auth.scope !== 'extended') {
        throw new DomainError('insufficient_scope', 'This operation needs a credential with the extended scope.');
      }
      // Not an IP address: ignored (charged to the credential alone), never trusted.
      const buyerIp = shopperKeyOf(req.headers.get('site-buyer-ip'));
      const kind = WRITE_METHODS.has(method) ? 'write' : 'read';
      // A key's own write comes before the handler's, so a claim could not ride in it.
      if (spec.claimInWrite && kind === 'write' && buyerIp && !req.headers.has('idempotency-key'))
        admission = trail.admission = await admitWrite({ credentialId: auth.credentialId, buyerIp });
      Object.assign(baseHeaders, admission ? admission.headers : await applyRateLimit({ credentialId: auth.credentialId, kind, buyerIp }));

      // Next has parsed the URL already (NextRequest.nextUrl); a long query (a batch of 100
      // ids) is not worth parsing twice.
      const url = (req as { nextUrl?: { pathname: string; search: string; searchParams: URLSearchParams } }).nextUrl ?? new URL(req.url);
      // Next passes no params to a route without dynamic segments.
      const params = parseOrThrow(spec.params ?? Empty, (await pathParams(ctx)) ?? {}, 'path');
      const query = parseQuery(spec.query ?? Empty, url);
      const rawBody = spec.body ? await readJsonBody(req) : null;
      if (spec.body && spec.precheck) spec.precheck(rawBody!.value);
      const body = spec.body ? parseOrThrow(spec.body, rawBody!.value, 'body') : {};

      // Always a Response, errors included: idempotency stores a handler's 4xx answer
      // (a retry gets the same answer) and releases the key on a 5xx (a retry runs again).
      const run = async (record?: Recorder) => {
        try {
          const riders = admission?.riders ?? null;
          const reply = await handler({ ...auth, req, requestId, params, query, body, buyerIp, riders } as HandlerInput<P, Q, B>);
          const origin = publicOrigin(req, env().STOREFRONT_ORIGIN);
          const response = toResponse(req, reply, baseHeaders, reply.memo ? await keptAnswer(reply, origin) : serialise(reply, origin));
          if (reply.write)
            await commitDeferred(db(), reply.write, record && response.status < 500 ? record(await answerOf(response)) : null);
          return response;
        } catch (error) {
          if (error instanceof KeyTaken) throw error;
          return toProblem(admission?.refusal(error) ?? error, requestId, baseHeaders, trail);
        }
      };
      if (method === 'POST') {
        return await withIdempotency(
          {
            credentialId: auth.credentialId,
            key: req.headers.get('idempotency-key'),
            method,
            path: url.pathname,
            bodyText: rawBody?.text ?? '',
          },
          run,
          baseHeaders,
          { deferredWrites: spec.deferredWrites },
        );
      }
      return await run();
    } catch (error) {
      return toProblem(error, requestId, baseHeaders, trail);
    }
  };
  // A write that ended before its batch (a 422, a 404, a signup held back) still counts
  // against its shopper's budget: a claim the batch did not carry is made now (settle), and
  // past the budget the answer is the 429 it would have been.
  const serveCounted = async (req: Request, ctx: RouteContext, trail: Trail): Promise<Response> => {
    const response = await serve(req, ctx, trail);
    if (!trail.admission) return response;
    try {
      for (const [name, value] of Object.entries(await trail.admission.settle())) response.headers.set(name, value);
      return response;
    } catch (error) {
      return toProblem(error, trail.requestId, { 'X-Request-Id': trail.requestId, Vary: 'Authorization' }, trail);
    }
  };
  return async (req, ctx) => {
    const trail: Trail = { started: performance.now(), requestId: '', siteId: null, error: undefined, admission: null };
    if (!tracing()) return answered(req, template, trail, await serveCounted(req, ctx, trail));
    return inSpan(
      operation,
      { kind: SpanKind.SERVER, parent: requestParent(req), attributes: { 'http.request.method': req.method, 'http.route': template } },
      async (span) => {
        const response = await serveCounted(req, ctx, trail);
        span.setAttribute('http.response.status_code', response.status);
        if (trail.siteId) span.setAttribute('site.id', trail.siteId);
        return answered(req, template, trail, response);
      },
    );
  };
}

/** What a request's log line needs to know from its way through the wrapper. */
type Trail = { started: number; requestId: string; siteId: string | null; error: unknown; admission: WriteAdmission | null };

/**
 * One log line and one metric per request: request id, method, the route's template,
 * status, duration and the Site's id. A failure's stack is in this line, and nowhere else.
 * Never the credential, a body, an address or the raw path.
 */
function answered(req: Request, route: string, trail: Trail, response: Response): Response {
  const durationMs = performance.now() - trail.started;
  recordRequest(route, req.method, response.status, durationMs / 1000);
  const line = {
    requestId: trail.requestId,
    method: req.method,
    route,
    status: response.status,
    durationMs: Math.round(durationMs * 10) / 10,
    siteId: trail.siteId ?? undefined,
    ...(trail.error === undefined ? {} : { err: trail.error }),
  };
  if (trail.error !== undefined || response.status >= 500) logger().error(line, 'request');
  else logger().info(line, 'request');
  return response;
}

/** A path segment that is not valid percent-encoding names nothing that exists: 404. */
async function pathParams(ctx: RouteContext) {
  try {
    return await ctx.params;
  } catch {
    throw new DomainError('not_found', 'No resource has that name (the path is not validly percent-encoded).');
  }
}

function firstValues(params: URLSearchParams, repeatable: ReadonlySet<string>): Record<string, string | string[]> {
  // No prototype: `?constructor=` or `?__proto__=` are plain (ignored) names here.
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [k, v] of params) {
    if (repeatable.has(k)) ((out[k] ??= []) as string[]).push(v);
    else if (!Object.hasOwn(out, k)) out[k] = v;
  }
  return out;
}

const repeatables = new WeakMap<ZodType, ReadonlySet<string>>();

/**
 * The query parameters a schema takes as arrays (`?option=a&option=b`): every value is kept
 * for those; any other name repeated keeps its first value.
 */
function repeatableNames(schema: ZodType): ReadonlySet<string> {
  let names = repeatables.get(schema);
  if (!names) {
    const shape = (schema as unknown as { shape?: Record<string, ZodType> }).shape ?? {};
    const isArray = (field: ZodType): boolean => {
      const def = (field as unknown as { _zod: { def: { type: string; innerType?: ZodType } } })._zod.def;
      return (
        def.type === 'array' ||
        ((def.type === 'optional' || def.type === 'default') && def.innerType !== undefined && isArray(def.innerType))
      );
    };
    names = new Set(Object.keys(shape).filter((k) => isArray(shape[k]!)));
    repeatables.set(schema, names);
  }
  return names;
}

/**
 * Long queries, parsed, by their text. A parse is a pure function of the query string, and
 * storefronts send the same long queries again and again: a product page's or a cart's
 * batch of variant ids is ~2.5 KB, split and validated id by id. The second time, the
 * answer is the first parse. Only successes are kept, frozen (every request with that
 * query shares them); a short query is simply parsed (that costs less than keeping it).
 * One memo for all operations, so however many of them someone fills with queries of
 * their own making, it holds ~3 MB at most (a parsed batch of 100 ids is mostly its id
 * strings: ~2× its JSON in heap, so some 500 batches).
 */
const LONG_QUERY = 256;
const parsedQueries = new BoundedCache<unknown>(1000, 3 * 1024 * 1024, 8, 'parsed-queries');
const schemaIds = new WeakMap<ZodType, number>();
let schemaCount = 0;

function parseQuery<S extends ZodType>(schema: S, url: { search: string; searchParams: URLSearchParams }): z.infer<S> {
  const text = url.search;
  if (text.length < LONG_QUERY) return parseOrThrow(schema, firstValues(url.searchParams, repeatableNames(schema)), 'query');
  let id = schemaIds.get(schema);
  if (id === undefined) schemaIds.set(schema, (id = ++schemaCount));
  // the text starts with '?', so the number cannot run into it
  const key = `${id}${text}`;
  const known = parsedQueries.get(key);
  if (known !== undefined) return known as z.infer<S>;
  const parsed = parseOrThrow(schema, firstValues(url.searchParams, repeatableNames(schema)), 'query');
  // measured: a parsed batch of 100 ids with its text takes ~2.8× the text's length
  parsedQueries.set(key, deepFreeze(parsed), text.length * 2 + 256);
  return parsed;
}

function parseOrThrow<S extends ZodType>(schema: S, value: unknown, where: 'body' | 'query' | 'path'): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new DomainError('validation_failed', `The request ${where === 'path' ? 'path' : where} is not valid.`, {
    errors: zodFieldErrors(parsed.error, where),
  });
}

/**
 * Bytes and ETag of cached (frozen) bodies, per origin their links are made absolute
 * against, living exactly as long as the cache entry. A deployment has one public origin
 * (or a few hosts); past MAX_ORIGINS a body is serialised on every request for the others.
 */
const serialised = new WeakMap<object, Map<string, { text: string; etag: string }>>();
const MAX_ORIGINS = 4;

function serialise(reply: Reply, origin: string): { text: string; etag?: string } {
  if (!reply.stamp) return serialiseBody(reply, origin);
  const base = serialiseBody(reply, origin);
  const fields = JSON.stringify(reply.stamp).slice(1, -1);
  if (!fields) return base;
  const text = base.text === '{}' ? `{${fields}}` : `${base.text.slice(0, -1)},${fields}}`;
  return { text, etag: `W/${base.etag ?? strongEtag(base.text)}` };
}

/** A body's text: checked against its schema when it has one, its links made absolute. */
function textOf(body: unknown, schema: ZodType | undefined, origin: string): string {
  return stringifyWithLinks(schema ? schema.parse(body) : body, origin);
}

function serialiseBody(reply: Reply, origin: string): { text: string; etag?: string } {
  const { body, schema } = reply;
  if (!schema) return { text: textOf(body, undefined, origin) };
  const shared = typeof body === 'object' && body !== null && Object.isFrozen(body);
  const byOrigin = shared ? serialised.get(body) : undefined;
  const hit = byOrigin?.get(origin);
  if (hit) return hit;
  const text = textOf(body, schema, origin);
  if (!shared) return { text };
  const entry = { text, etag: strongEtag(text) };
  if (!byOrigin) serialised.set(body, new Map([[origin, entry]]));
  else if (byOrigin.size < MAX_ORIGINS) byOrigin.set(origin, entry);
  return entry;
}

/**
 * A memoised reply's bytes and ETag (Reply.memo), per origin: its links are made absolute
 * against the origin, so the origin is part of the key. Only the first MAX_ORIGINS origins a
 * process sees are kept (a deployment has one public origin, or a few hosts): a request
 * naming yet another Host gets its answer made for it alone, so nobody can crowd the
 * shoppers' answers out of the cache with Host headers of their own making.
 */
const keptOrigins = new Set<string>();

function keptAnswer(reply: Reply, origin: string): Answer | Promise<Answer> {
  const { key, load, fresh, scopesOf, shared } = reply.memo!;
  const make = async (): Promise<Answer> => {
    // Another instance (or this one before a restart) may have built it already.
    const address = shared && fresh && keptInDatabase(origin) ? { ...shared.address, origin } : null;
    let body: unknown;
    if (address) {
      const { database, alongside } = shared!;
      // Over a network the answer's own read goes in the same request, in case it is needed.
      const together = alongside && overNetwork(database) ? alongside() : null;
      const found = await storedAnswer(database, address, together?.statement);
      const holds = found.stored !== null && fresh!.holds(found.stored);
      countStored(holds);
      if (holds) return found.stored!;
      body = together ? await together.body(found.row) : await load();
    } else {
      body = await load();
    }
    // A kept answer is the domain's own typed object, built from rows the database's
    // constraints keep in shape, and made once per change: in production it is sent as built,
    // without its schema's parse (a copy of the whole answer, a sizeable share of a miss).
    // Development and tests check every one, and test/product-answer.test.ts every product
    // of the demo catalog in every market and locale.
    const text = textOf(body, env().NODE_ENV === 'production' ? undefined : reply.schema, origin);
    const answer = { text, etag: strongEtag(text) };
    if (!fresh || !scopesOf) return answer;
    const scoped = { ...answer, validAt: fresh.validAt, scopes: scopesOf(body as never) };
    if (address) storeAnswer(shared!.database, address, scoped);
    return scoped;
  };
  if (!keptOrigins.has(origin)) {
    if (keptOrigins.size >= MAX_ORIGINS) return make();
    keptOrigins.add(origin);
  }
  const full = `${key}|${origin}`;
  const holds = fresh ? (answer: Answer) => fresh.holds(answer) : undefined;
  return answerCache.get(full, holds) ?? answerCache.fill(full, make, answerWeight, holds);
}

function toResponse(
  req: Request,
  reply: Reply,
  baseHeaders: Record<string, string>,
  answer: { text: string; etag?: string; scopes?: readonly string[] },
): Response {
  const { text, etag: knownEtag } = answer;
  const headers: Record<string, string> = {
    ...baseHeaders,
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': CACHE_PROFILES[reply.cache ?? 'none'],
    ...(reply.contentLanguage ? { 'Content-Language': reply.contentLanguage } : {}),
    // What the answer shows, as a CDN's purge-by-tag takes it; a page made from it can be
    // checked without asking again (lib/storefront/kept-pages.ts).
    ...(answer.scopes ? { 'Cache-Tag': answer.scopes.join(',') } : {}),
    ...reply.headers,
  };
  if (req.method === 'GET' || req.method === 'HEAD') {
    const etag = headers.ETag ?? knownEtag ?? strongEtag(text);
    headers.ETag = etag;
    if (etagMatches(req.headers.get('if-none-match'), etag)) {
      delete headers['Content-Type'];
      // The 200 it stands for varies on Accept-Encoding too (Next's compression adds it to
      // answers with a body), and a 304 must name the same Vary (RFC 9110 §15.4.5).
      headers.Vary = `${headers.Vary}, Accept-Encoding`;
      return new Response(null, { status: 304, headers });
    }
  }
  const response = new Response(text, { status: reply.status, headers });
  bodyTextOf.set(response, text);
  return response;
}

/**
 * The problem+json answer for anything thrown. A failure that is our bug (an unexpected error,
 * an answer failing its own schema) goes into `trail.error`, for the request's log line; without
 * a trail it gets a line of its own.
 */
export function toProblem(error: unknown, requestId: string, baseHeaders: Record<string, string>, trail?: { error: unknown }): Response {
  let fault: StorageFault | null;
  if (error instanceof HttpFailure) {
    for (const [k, v] of Object.entries(baseHeaders)) if (!error.response.headers.has(k)) error.response.headers.set(k, v);
    return error.response;
  }
  if (error instanceof DomainError) {
    return problemResponse({
      code: error.code,
      detail: error.detail,
      requestId,
      errors: error.options.errors,
      extensions: error.options.extensions,
      headers: { ...baseHeaders, ...error.options.headers },
    });
  }
  if (error instanceof ZodError) {
    // A response that does not match its own schema is our bug, never the caller's.
    const failure = Object.assign(new Error('the response failed its schema'), { issues: error.issues.slice(0, 5) });
    if (trail) trail.error = failure;
    else logger().error({ requestId, err: failure }, 'response failed its schema');
  } else if ((fault = storageFaultOf(error))) {
    // The database's fault, not the request's: one log line per kind of fault (faults.ts), no stack per request.
    reportStorageFault(fault, error);
    recordDatabaseUnavailable(fault);
    return problemResponse({
      code: 'service_unavailable',
      detail:
        fault === 'busy' || fault === 'timeout'
          ? 'The service is busy. Try again shortly.'
          : 'Storage is temporarily unavailable. Try again shortly.',
      requestId,
      headers: { ...baseHeaders, 'Retry-After': String(retryAfterSeconds(fault)) },
    });
  } else if (trail) {
    trail.error = error;
  } else {
    logger().error({ requestId, err: error }, 'unhandled error');
  }
  return problemResponse({ code: 'internal_error', detail: 'Something went wrong on our side.', requestId, headers: baseHeaders });
}

const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof ALL_METHODS)[number];

/**
 * Every method a path does not serve answers 405 with Allow, as problem+json, from here;
 * OPTIONS answers 204 with exactly the methods served (Next's own OPTIONS would list every
 * method exported, and this exports them all).
 * Use: `export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({ GET: route(...) })`.
 */
export function endpoint(served: Partial<Record<Exclude<Method, 'HEAD'>, RouteHandler>>): Record<Method | 'OPTIONS', RouteHandler> {
  const allow = allowedMethods(Object.keys(served)).join(', ');
  const notAllowed: RouteHandler = async (req) => {
    const requestId = requestIdFor(req);
    return problemResponse({
      code: 'method_not_allowed',
      detail: `${req.method} is not served here. Allowed: ${allow}.`,
      requestId,
      headers: { Allow: allow, 'X-Request-Id': requestId },
    });
  };
  const options: RouteHandler = async (req) =>
    new Response(null, {
      status: 204,
      headers: { Allow: `${allow}, OPTIONS`, 'X-Request-Id': requestIdFor(req), 'Cache-Control': 'no-store' },
    });
  const out = { OPTIONS: options } as Record<Method | 'OPTIONS', RouteHandler>;
  for (const m of ALL_METHODS) {
    out[m] = m === 'HEAD' ? (served.GET ?? notAllowed) : (served[m] ?? notAllowed);
  }
  return out;
}
