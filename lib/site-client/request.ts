import 'server-only';
import { Problem } from '@/lib/contract/common';
import { bodyTextOf } from '@/lib/http/body-text';
import type { Operation } from '@/lib/contract/operation';
import { clientConfig, currentShopper } from './config';
import { sendInProcess } from './in-process';
import { SiteApiError, SiteApiUnavailable } from './errors';
import { noteShopperLimited } from './shopper-limits';
import { logger } from '@/lib/platform/observability/logger';
import { noteRead, partTag, scopesTag, UNCHECKABLE } from './reads';
import type { CallInput, CallResult } from './types';
import { injectTraceHeaders, tracedCall, tracingCalls } from './trace';

const TIMEOUT_MS = 10_000;
/** A same-key request still in flight answers 409; the first one finishes quickly, then replays. */
const IN_FLIGHT_RETRIES = 12;

/**
 * Calls one operation of /site/v1 with the Site credential and parses the answer with
 * the operation's own response schema, so the storefront sees exactly the contract.
 */
export function call<O extends Operation>(operation: O, input: CallInput<O> = {}): Promise<CallResult<O>> {
  return tracingCalls()
    ? tracedCall(operation.operationId, operation.method.toUpperCase(), () => send(operation, input))
    : send(operation, input);
}

async function send<O extends Operation>(operation: O, input: CallInput<O>): Promise<CallResult<O>> {
  const { baseUrl, credential, nearby, inProcess } = clientConfig();
  if (!credential) throw new SiteApiUnavailable(operation.operationId, 'SITE_API_CREDENTIAL is not set');

  const path = `${fillPath(operation.path, input.params as Record<string, unknown> | undefined)}${queryString(input.query)}`;
  const url = `${baseUrl}${path}`;
  const method = operation.method.toUpperCase();
  // A render's reads are noted (./reads.ts): what a kept page was made from.
  const note = method === 'GET' ? (tag: string) => noteRead(path, tag) : () => {};
  const headers: Record<string, string> = { Authorization: `Bearer ${credential}`, Accept: 'application/json' };
  // An API on this machine (usually this very process) is asked for plain bodies: gzip
  // would cost a compression there and a decompression here for every read a page makes.
  if (nearby) headers['Accept-Encoding'] = 'identity';
  if (input.body !== undefined) headers['Content-Type'] = 'application/json';
  if (input.idempotencyKey) headers['Idempotency-Key'] = input.idempotencyKey;
  const buyerIp = input.buyerIp !== undefined ? input.buyerIp : await currentShopper();
  if (buyerIp) headers['Site-Buyer-IP'] = buyerIp;
  if (input.ifMatch) headers['If-Match'] = input.ifMatch;
  // W3C traceparent of this call's span: the API's span is its child, over HTTP or in process.
  if (tracingCalls()) injectTraceHeaders(headers, !inProcess);
  const body = input.body === undefined ? undefined : JSON.stringify(input.body);
  // Reads, and writes that carry an idempotency key, are safe to send again.
  const repeatable = method === 'GET' || Boolean(input.idempotencyKey);

  for (let attempt = 0; ; attempt += 1) {
    let response: Response;
    try {
      // In-process nothing would heed the signal (the database has time limits of its own).
      const init = { method, headers, body, signal: inProcess ? undefined : AbortSignal.timeout(TIMEOUT_MS) };
      response = await (inProcess ? sendInProcess(url, init) : fetch(url, { ...init, cache: 'no-store' }));
    } catch (error) {
      if (repeatable && attempt < 1) {
        await sleep(200);
        continue;
      }
      note(UNCHECKABLE);
      throw new SiteApiUnavailable(operation.operationId, error instanceof Error ? error.name : 'fetch failed');
    }

    if (response.status === operation.success.status) {
      const text = (inProcess ? bodyTextOf.get(response) : undefined) ?? (await response.text());
      const answer = parseAnswer(text, url);
      // An answer of this process's own route is what that route made by parsing its body with
      // this same schema (response schemas parse what leaves the server): a read's is not
      // parsed a second time. Over HTTP (another deployment, anything between) it is. The
      // contract itself is held by the API's tests, which parse every answer with these schemas.
      const parsed =
        inProcess && method === 'GET' && answer !== undefined
          ? ({ success: true, data: answer } as const)
          : operation.success.schema.safeParse(answer);
      const etag = response.headers.get('etag');
      if (!parsed.success) {
        note(UNCHECKABLE);
        throw new SiteApiUnavailable(operation.operationId, 'the answer does not match the contract', response.status);
      }
      // By the answer as sent (its links as the API wrote them), so every instance tags it alike.
      const scopes = response.headers.get('cache-tag');
      const readTag = input.logFields
        ? partTag(JSON.parse(text), input.logFields)
        : scopes !== null
          ? scopesTag(scopes)
          : (etag ?? UNCHECKABLE);
      note(readTag);
      return {
        data: parsed.data as CallResult<O>['data'],
        path,
        readTag,
        status: response.status,
        etag,
        replayed: response.headers.get('idempotent-replayed') === 'true',
      };
    }

    const problem = Problem.safeParse(parseAnswer(await response.text(), url));
    if (!problem.success) {
      if (repeatable && attempt < 1 && response.status >= 500) {
        await sleep(200);
        continue;
      }
      note(UNCHECKABLE);
      throw new SiteApiUnavailable(operation.operationId, `unexpected ${response.status}`, response.status);
    }
    const code = problem.data.code;
    if (code === 'idempotency_key_in_use' && attempt < IN_FLIGHT_RETRIES) {
      await sleep(100 + attempt * 50);
      continue;
    }
    // A moment's lock (Retry-After: 1) is waited out; an outage (a database server down or
    // stalled, Retry-After: 5) is not: every read of a page would wait in turn, and the shop's
    // 503 page took longer than a shopper waits.
    if (code === 'service_unavailable' && repeatable && attempt < 2 && retryAfterMs(response) <= 1000) {
      await sleep(retryAfterMs(response));
      continue;
    }
    if (response.status >= 500) {
      logFailure(operation, response.status, code, problem.data.requestId);
      note(UNCHECKABLE);
      throw new SiteApiUnavailable(operation.operationId, code, response.status);
    }
    // The shopper's own read budget is spent (not the storefront's, and not their writes, which
    // leave reading alone): the proxy answers their next pages 429 until the API's
    // Retry-After has passed (./shopper-limits.ts).
    if (code === 'rate_limited' && buyerIp && /"shopper-reads"/.test(response.headers.get('ratelimit-policy') ?? '')) {
      noteShopperLimited(buyerIp, Number(response.headers.get('retry-after')));
    }
    // Only "there is none" stays true while the catalog does not change; a refusal may not.
    note(code === 'not_found' ? 'status:404' : UNCHECKABLE);
    throw new SiteApiError(problem.data);
  }
}

function fillPath(template: string, params: Record<string, unknown> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === '') throw new Error(`Missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

function queryString(query: unknown): string {
  if (!query || typeof query !== 'object') return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    if (value === undefined || value === null || value === '') continue;
    // An array is a repeatable parameter (`option=a&option=b`); comma lists are strings already.
    if (Array.isArray(value)) for (const item of value) search.append(key, String(item));
    else search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * The API answers absolute links (images, the hosted checkout). Those on the API's own
 * origin are this same app's files and pages, so the shop keeps them as paths and serves
 * them from the origin the shopper is on (which the API, called server-side on an internal
 * address, cannot know).
 */
function parseAnswer(text: string, url: string): unknown {
  const own = new URL(url).origin;
  try {
    if (!text.includes(`${own}/`)) return JSON.parse(text);
    // A reviver makes JSON.parse several times slower: the links are cut in the text instead,
    // where a key can only follow `{` or `,` (a quote inside a string is escaped). Whatever
    // the text still holds of the origin (another layout, another field) takes the slow way.
    const cut = text.replace(ownLinks(own), '$1/');
    if (!cut.includes(`${own}/`)) return JSON.parse(cut);
    return JSON.parse(text, (key, value) =>
      (key === 'url' || key === 'checkoutUrl') && typeof value === 'string' && value.startsWith(`${own}/`)
        ? value.slice(own.length)
        : value,
    );
  } catch {
    return undefined;
  }
}

const linkPatterns = new Map<string, RegExp>();

/** `"url":"<origin>/` and `"checkoutUrl":"<origin>/` as keys of an object, for one origin (the API's: one or two a process). */
function ownLinks(origin: string): RegExp {
  let pattern = linkPatterns.get(origin);
  if (!pattern) {
    pattern = new RegExp(`([{,]"(?:url|checkoutUrl)":")${origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`, 'g');
    if (linkPatterns.size < 8) linkPatterns.set(origin, pattern);
  }
  return pattern;
}

function retryAfterMs(response: Response): number {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 2) * 1000 : 250;
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Operation, status, code and request id only: never headers, bodies or the credential. */
function logFailure(operation: Operation, status: number, code: string, requestId: string) {
  logger().warn(
    { operationId: operation.operationId, status, code, requestId },
    `[site-client] ${operation.operationId} answered ${status} ${code}`,
  );
}
