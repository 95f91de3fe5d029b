import { problemResponse } from '@/lib/contract/problem-answers';
import { requestIdFor } from '@/lib/http/request-id';
import { readiness } from '@/lib/server/health';

// GET /readyz — readiness: 200 while the database answers within a second and has this
// build's migrations, else 503 problem+json with Retry-After. Not part of the API: no
// credential, no rate limit, not in the OpenAPI document.
export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const state = await readiness();
  const headers = { 'Cache-Control': 'no-store' };
  if (state.ready) return Response.json({ status: 'ready', migrations: state.migrations }, { headers });
  const requestId = requestIdFor(req);
  return problemResponse({
    code: 'service_unavailable',
    detail: `Not ready: ${state.reason}.`,
    requestId,
    headers: { ...headers, 'Retry-After': '5', 'X-Request-Id': requestId },
  });
}

export const HEAD = GET;
