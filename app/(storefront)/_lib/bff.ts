import 'server-only';
import { SiteApiError } from '@/lib/site-client';

/**
 * The shop's own endpoints answer only its own pages: a browser sends Origin on POST (and
 * Sec-Fetch-Site on every request), so a request from another site is refused.
 */
export function sameOrigin(req: Request): boolean {
  const site = req.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.headers.get('origin');
  if (!origin) return req.method === 'GET' || req.method === 'HEAD';
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

/** An API problem the shopper caused keeps its code; anything else is a plain 503. */
export function fromError(error: unknown): Response {
  if (error instanceof SiteApiError && error.status < 500) return json({ code: error.code }, error.status === 404 ? 404 : 422);
  return json({ code: 'unavailable' }, 503);
}
