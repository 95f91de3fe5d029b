// GET /healthz — liveness for a load balancer or orchestrator: the process answers. It asks
// nothing of the database, so an outage there never gets a healthy process restarted.
// Not part of the API: no credential, no rate limit, not in the OpenAPI document.
export const dynamic = 'force-dynamic';

export function GET(): Response {
  return Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } });
}

export const HEAD = GET;
