import { timingSafeEqual } from 'node:crypto';
import { env } from '@/lib/env';
import { problemResponse } from '@/lib/contract/problem-answers';
import { requestIdFor } from '@/lib/http/request-id';
import { outboxBacklog } from '@/lib/jobs/outbox';
import { metricsText } from '@/lib/platform/observability/metrics';

// GET /metrics — the process's metrics in Prometheus' text format, for a scraper holding
// METRICS_TOKEN (`Authorization: Bearer <token>`); without METRICS_TOKEN the path does not
// exist (404). Not part of the API: not in the OpenAPI document, no rate limit, never cached.
export const dynamic = 'force-dynamic';

const NO_STORE = { 'Cache-Control': 'no-store' };

export async function GET(req: Request): Promise<Response> {
  const token = env().METRICS_TOKEN;
  const requestId = requestIdFor(req);
  const headers = { ...NO_STORE, 'X-Request-Id': requestId };
  if (!token) return problemResponse({ code: 'not_found', detail: 'No such resource.', requestId, headers });
  if (!sameSecret(bearerOf(req.headers.get('authorization')), token)) {
    return problemResponse({
      code: 'unauthorized',
      detail: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.',
      requestId,
      headers: { ...headers, 'WWW-Authenticate': 'Bearer realm="metrics"' },
    });
  }
  const { text, contentType } = await metricsText(() => outboxBacklog());
  return new Response(text, { headers: { ...headers, 'Content-Type': contentType } });
}

export const HEAD = GET;

function bearerOf(header: string | null): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? '';
}

/** Compared in constant time: the answer's timing says nothing about the token. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
