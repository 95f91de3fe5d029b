import { z } from 'zod';
import { createDocument } from 'zod-openapi';
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject, ZodOpenApiResponsesObject } from 'zod-openapi';
import { PROBLEMS } from '@/lib/http/problems';
import type { ProblemCode } from '@/lib/commerce/errors';
import { Problem } from './common';
import type { Operation } from './operation';
import { operations } from './operations';

const HEADER_DOCS: Record<string, { description: string }> = {
  ETag: { description: 'Strong validator; send it back in If-None-Match for a 304.' },
  'Cache-Control': { description: 'How long the answer may be reused, by kind of data.' },
  'Content-Language': { description: 'The locale the text is in.' },
  Location: { description: 'URL of the created resource.' },
  'X-Request-Id': { description: 'Echoes a well-formed incoming X-Request-Id, else a new one; quote it when reporting a problem.' },
  RateLimit: { description: 'What is left of the budget (IETF RateLimit header fields draft).' },
  'RateLimit-Policy': { description: 'The budget that applies (IETF RateLimit header fields draft).' },
  'Idempotent-Replayed': { description: '`true` when this is a replay of an earlier answer to the same Idempotency-Key.' },
};

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
  'Site-Buyer-IP': z.string().max(45).optional().meta({ description: 'The shopper\'s IP address, for per-shopper write limits only; never stored.' }),
});

const ALWAYS: ProblemCode[] = ['unauthorized', 'rate_limited', 'internal_error', 'service_unavailable'];

function problemResponses(operation: Operation): ZodOpenApiResponsesObject {
  const codes = new Set<ProblemCode>([...ALWAYS, ...operation.errors]);
  if (operation.scope === 'extended') codes.add('insufficient_scope');
  if (operation.body) ['invalid_json', 'unsupported_media_type', 'payload_too_large', 'validation_failed'].forEach((c) => codes.add(c as ProblemCode));
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of codes) {
    const { status } = PROBLEMS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: ZodOpenApiResponsesObject = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    (out as Record<string, unknown>)[String(status)] = {
      description: list.map((c) => `\`${c}\``).join(', '),
      content: { 'application/problem+json': { schema: Problem } },
    };
  }
  return out;
}

function toOpenApiOperation(operation: Operation): ZodOpenApiOperationObject {
  const headers = Object.fromEntries(
    [...(operation.success.headers ?? []), 'RateLimit', 'RateLimit-Policy', 'X-Request-Id'].map((h) => [h, { description: HEADER_DOCS[h]?.description ?? h, schema: { type: 'string' as const } }]),
  );
  const responses: ZodOpenApiResponsesObject = {
    [String(operation.success.status)]: {
      description: operation.success.description,
      headers,
      content: { 'application/json': { schema: operation.success.schema } },
    },
    ...(operation.method === 'get' ? { '304': { description: 'Not modified (If-None-Match matched the ETag).' } } : {}),
    ...problemResponses(operation),
  };
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: [operation.description, `Scope: \`${operation.scope}\`.`].filter(Boolean).join('\n\n'),
    tags: [operation.tag],
    security: [{ siteCredential: [] }],
    requestParams: {
      ...(operation.params ? { path: operation.params } : {}),
      ...(operation.query ? { query: operation.query } : {}),
      ...(operation.method === 'post'
        ? { header: IdempotencyHeaders.extend(BuyerHeaders.shape) }
        : operation.method === 'patch'
          ? { header: BuyerHeaders.extend({ 'If-Match': z.string().optional().meta({ description: 'The ETag you read; a stale one answers 412.' }) }) }
          : {}),
    },
    ...(operation.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: operation.body } } } }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document, generated from the same zod schemas that validate requests. */
export function buildOpenApiDocument() {
  const paths: ZodOpenApiPathsObject = {};
  for (const operation of operations) {
    const path = (paths[`/site/v1${operation.path}`] ??= {});
    path[operation.method] = toOpenApiOperation(operation);
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Site Delivery API',
      version: '1.0.0',
      description:
        'Storefront reads, signups and checkout for one Site. Every call carries a secret Site credential ' +
        '(`Authorization: Bearer site_<scope>_…`) from a server; never from a browser. Errors are RFC 9457 ' +
        'problem+json with a stable `code`. Money is `{ amount: "199.00", currency: "SEK" }`.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        siteCredential: { type: 'http', scheme: 'bearer', description: 'A Site credential: `site_core_…` or `site_extended_…`.' },
      },
    },
    paths,
  });
}
