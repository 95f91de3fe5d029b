import { z } from 'zod';
import { createDocument } from 'zod-openapi';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject, ZodOpenApiResponsesObject } from 'zod-openapi';
import { PROBLEMS, type ProblemCode } from './problems';
import { problemOf } from './common';
import type { Operation } from './operation';
import { operations } from './operations';

const HEADER_DOCS: Record<string, { description: string }> = {
  ETag: {
    description:
      'Validator of the answer (of the checkout session, on answers that carry one): strong, except on availability (single and batch), where it is weak (`W/"…"`) because those answers differ only by `asOf`. Send it back in If-None-Match for a 304, or in If-Match on PATCH.',
  },
  'Cache-Control': { description: 'How long the answer may be reused, by kind of data.' },
  'Content-Language': { description: 'The locale the text is in.' },
  'Cache-Tag': {
    description:
      'What the answer shows, comma-separated: `product:<handle>` for the product and each product its bundles hold, `collection:<handle>` for each collection it names. A change to any of them (or to the whole Site) changes the answer; a CDN that purges by tag can keep it until then.',
  },
  Location: { description: 'URL of the created resource.' },
  'X-Request-Id': { description: 'Echoes a well-formed incoming X-Request-Id, else a new one; quote it when reporting a problem.' },
  RateLimit: { description: 'What is left of the budget (IETF RateLimit header fields draft).' },
  'RateLimit-Policy': { description: 'The budget that applies (IETF RateLimit header fields draft).' },
  'Idempotent-Replayed': { description: '`true` when this is a replay of an earlier answer to the same Idempotency-Key.' },
  'Retry-After': { description: 'Seconds to wait before trying again.' },
  'WWW-Authenticate': { description: '`Bearer realm="site"`.' },
  Vary: { description: '`Authorization`: answers differ by credential.' },
};

/** Each header is described once, in components.headers, and referred to from every answer. */
function headerObjects(names: string[]) {
  return Object.fromEntries(names.map((h) => [h, { $ref: `#/components/headers/${h}` }]));
}

function headerComponents() {
  return Object.fromEntries(
    Object.entries(HEADER_DOCS).map(([h, { description }]) => [h, { description, schema: { type: 'string' as const } }]),
  );
}

/** Every POST may carry an Idempotency-Key (docs/api.md). */
const IdempotencyHeaders = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x20-\x7E]+$/)
    .optional()
    .meta({
      description:
        'Replays the first answer (status and body, with `Idempotent-Replayed: true`) to a repeat of the same request ' +
        'with the same key within 24 h; the same key with another body is `idempotency_key_reused`, one still in flight ' +
        '`idempotency_key_in_use`. Keys are per credential.',
    }),
});

/** The optional shopper address a server-side caller may pass; used only to partition write limits. */
const BuyerHeaders = z.object({
  'Site-Buyer-IP': z.string().max(45).optional().meta({
    description:
      "The shopper's IP address, sent by a server-side caller: it adds a per-shopper rate-limit budget to the credential's (reads and writes). Never stored.",
  }),
});

// uri_too_long: the server refuses any request target past its limit before routing it (lib/server/server-guard.ts).
const ALWAYS: ProblemCode[] = ['unauthorized', 'uri_too_long', 'rate_limited', 'internal_error', 'service_unavailable'];

/** The codes an operation can answer: its own, and those every operation of its kind can. */
export function problemCodesOf(operation: Operation): ProblemCode[] {
  const codes = new Set<ProblemCode>([...ALWAYS, ...operation.errors]);
  if (operation.scope === 'extended') codes.add('insufficient_scope');
  if (operation.params || operation.query) codes.add('validation_failed');
  if (operation.body)
    ['invalid_json', 'unsupported_media_type', 'payload_too_large', 'validation_failed'].forEach((c) => codes.add(c as ProblemCode));
  if (operation.method === 'post')
    ['idempotency_key_reused', 'idempotency_key_in_use', 'validation_failed'].forEach((c) => codes.add(c as ProblemCode));
  return [...codes];
}

/** Headers an error answer may carry, by status. */
function problemHeaders(status: number, codes: ProblemCode[]): string[] {
  const headers = ['X-Request-Id', 'Cache-Control', 'Vary'];
  // 401 and 403 are not counted: there is no budget to charge them to.
  if (status !== 401 && status !== 403) headers.push('RateLimit', 'RateLimit-Policy');
  if (status === 401) headers.push('WWW-Authenticate');
  if (status === 429 || status === 503 || codes.includes('idempotency_key_in_use')) headers.push('Retry-After');
  if (codes.includes('idempotency_key_reused') || status < 500) headers.push('Idempotent-Replayed');
  return headers;
}

function problemResponses(operation: Operation): ZodOpenApiResponsesObject {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of problemCodesOf(operation)) {
    const { status } = PROBLEMS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: ZodOpenApiResponsesObject = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    (out as Record<string, unknown>)[String(status)] = {
      description: list.map((c) => `\`${c}\``).join(', '),
      headers: headerObjects(problemHeaders(status, list)),
      content: { 'application/problem+json': { schema: problemOf(list) } },
    };
  }
  return out;
}

/** What the route wrapper sends on every success, and what this operation adds. */
function successHeaders(operation: Operation): string[] {
  const always = ['Cache-Control', 'RateLimit', 'RateLimit-Policy', 'X-Request-Id', 'Vary'];
  if (operation.method === 'get') always.push('ETag');
  if (operation.method === 'post') always.push('Idempotent-Replayed');
  return [...new Set([...(operation.success.headers ?? []), ...always])];
}

function toOpenApiOperation(operation: Operation, method: 'get' | 'head' | 'post' | 'patch' = operation.method): ZodOpenApiOperationObject {
  const head = method === 'head';
  const responses: ZodOpenApiResponsesObject = {
    [String(operation.success.status)]: {
      description: head ? `${operation.success.description} Headers only.` : operation.success.description,
      headers: headerObjects(successHeaders(operation)),
      ...(head ? {} : { content: { 'application/json': { schema: operation.success.schema } } }),
    },
    ...(operation.method === 'get'
      ? {
          '304': {
            description: "Not modified (If-None-Match matched the ETag): the success answer's headers, no body.",
            headers: headerObjects(successHeaders(operation)),
          },
        }
      : {}),
    ...(head
      ? Object.fromEntries(
          Object.entries(problemResponses(operation)).map(([status, r]) => [
            status,
            { description: (r as { description: string }).description, headers: (r as { headers: unknown }).headers },
          ]),
        )
      : problemResponses(operation)),
  };
  const getHeaders = z.object({ 'If-None-Match': z.string().optional().meta({ description: 'An ETag you hold; a match answers 304.' }) });
  return {
    operationId: head ? `${operation.operationId}Head` : operation.operationId,
    summary: head ? `${operation.summary} (headers only)` : operation.summary,
    description: [head ? 'The same as GET, without a body.' : operation.description, `Scope: \`${operation.scope}\`.`]
      .filter(Boolean)
      .join('\n\n'),
    tags: [operation.tag],
    security: [{ siteCredential: [] }],
    requestParams: {
      ...(operation.params ? { path: operation.params } : {}),
      ...(operation.query ? { query: operation.query } : {}),
      ...(operation.method === 'post'
        ? { header: IdempotencyHeaders.extend(BuyerHeaders.shape) }
        : operation.method === 'patch'
          ? {
              header: BuyerHeaders.extend({
                'If-Match': z.string().optional().meta({ description: 'The ETag you read; a stale one answers 412.' }),
              }),
            }
          : { header: getHeaders.extend(BuyerHeaders.shape) }),
    },
    ...(operation.body
      ? { requestBody: { required: !operation.body.safeParse({}).success, content: { 'application/json': { schema: operation.body } } } }
      : {}),
    responses,
  };
}

const TAG_DOCS: Record<string, string> = {
  Site: 'The Site the credential belongs to: its markets and locales.',
  Storefront: "Everything a storefront's first page needs, in one consistent read.",
  Catalog: 'Products, prices per market, collections.',
  Availability: 'Coarse stock status: never exact quantities.',
  Signups: 'Back-in-stock and newsletter signups with explicit, separate consent (double opt-in).',
  Checkout: 'Checkout sessions priced from the catalog.',
  'Merchant checkout': "Finishing a checkout on the merchant's own pages (extended scope).",
  Analytics: 'Anonymous storefront events; nothing that identifies a person.',
};

/** The OpenAPI 3.1 document, generated from the same zod schemas that validate requests. */
export function buildOpenApiDocument() {
  const paths: ZodOpenApiPathsObject = {};
  const tags: string[] = [];
  for (const operation of operations) {
    const path = (paths[`/site/v1${operation.path}`] ??= {});
    path[operation.method] = toOpenApiOperation(operation);
    if (operation.method === 'get') path.head = toOpenApiOperation(operation, 'head');
    if (!tags.includes(operation.tag)) tags.push(operation.tag);
  }
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Site Delivery API',
        version: '1.0.0',
        description:
          'Storefront reads, signups and checkout for one Site. Every call carries a secret Site credential ' +
          '(`Authorization: Bearer site_<scope>_…`) from a server; never from a browser. Errors are RFC 9457 ' +
          'problem+json with a stable `code`. Money is `{ amount: "199.00", currency: "SEK" }`. ' +
          'Every path answers HEAD where it answers GET; a method a path does not serve (TRACE included) answers ' +
          '405 `method_not_allowed` with `Allow` listing the methods it does serve, and OPTIONS answers 204 with the same `Allow`. ' +
          'A request target longer than 12 KiB answers 414 `uri_too_long`, and a request line with headers past 16 KiB ' +
          '431 (both problem+json).',
        contact: { name: 'Site Delivery' },
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: '/' }],
      tags: tags.map((name) => ({ name, description: TAG_DOCS[name] ?? name })),
      components: {
        headers: headerComponents(),
        securitySchemes: {
          siteCredential: { type: 'http', scheme: 'bearer', description: 'A Site credential: `site_core_…` or `site_extended_…`.' },
        },
      },
      paths,
    },
    { override: oneSchemaPerPattern },
  );
}

/**
 * zod renders two `.regex()` on one string as `allOf: [{ pattern }, { pattern }]`, which
 * generated clients type as `string & (unknown & unknown)`. One pattern that requires each
 * of them (lookaheads from the start) says the same and types as `string`.
 */
function oneSchemaPerPattern({ jsonSchema }: { jsonSchema: Record<string, unknown> }) {
  const all = jsonSchema.allOf;
  if (!Array.isArray(all) || !all.every((s) => s && typeof s === 'object' && Object.keys(s).length === 1 && typeof s.pattern === 'string'))
    return;
  const patterns = [...(typeof jsonSchema.pattern === 'string' ? [jsonSchema.pattern] : []), ...all.map((s) => s.pattern as string)];
  jsonSchema.pattern = patterns.length === 1 ? patterns[0] : `^${patterns.map((p) => `(?=[\\s\\S]*?(?:${p}))`).join('')}`;
  delete jsonSchema.allOf;
}
