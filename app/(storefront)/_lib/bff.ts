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

export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });
}

/** A form the shop's own pages post is a few fields; anything larger is not one of them. */
const MAX_FORM_BYTES = 4096;

/**
 * Reads an `application/x-www-form-urlencoded` body (what a form posts without JavaScript,
 * and what the pages' scripts send): null for another media type, no Content-Length (a
 * browser always sends one for a form), more than 4 KiB, or bytes that are not UTF-8. The
 * server reads no more than the declared length, so the read is bounded.
 */
export async function readForm(req: Request): Promise<URLSearchParams | null> {
  const type = (req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const length = Number(req.headers.get('content-length') ?? NaN);
  if (type !== 'application/x-www-form-urlencoded' || !Number.isInteger(length) || length > MAX_FORM_BYTES) return null;
  try {
    return new URLSearchParams(new TextDecoder('utf-8', { fatal: true }).decode(await req.arrayBuffer()));
  } catch {
    return null;
  }
}

/** The pages' scripts ask for JSON; a form posted without JavaScript does not. */
export function wantsJson(req: Request): boolean {
  return (req.headers.get('accept') ?? '').includes('application/json');
}
