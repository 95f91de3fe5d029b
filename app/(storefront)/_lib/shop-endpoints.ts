import 'server-only';
import { BodyTooLarge, readTextCapped } from '@/lib/http/body-limit';
import { PROBLEMS, type ProblemCode } from '@/lib/contract/problems';
import { SiteApiError, type FieldError } from '@/lib/site-client';

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

/**
 * An RFC 9457 problem from one of the shop's own JSON endpoints, with the API's codes and
 * titles and, for bad input, one JSON pointer per offending query parameter (`#/query/q`).
 */
export function problem(code: ProblemCode, detail: string, errors: FieldError[] = [], headers: Record<string, string> = {}): Response {
  const { status, title } = PROBLEMS[code];
  return refusal(status, code, detail, { title, errors, headers });
}

const TITLES: Record<number, string> = {
  400: 'Bad request',
  403: 'Forbidden',
  404: 'Not found',
  413: 'Payload too large',
  422: 'Unprocessable content',
  503: 'Service unavailable',
};

/**
 * Every refusal of the shop's endpoints, as a problem (RFC 9457) with a stable `code`,
 * whatever its status: the pages' scripts read `code`, and anyone else gets the same shape
 * the API answers.
 */
export function refusal(
  status: number,
  code: string,
  detail: string,
  extra: { title?: string; errors?: FieldError[]; headers?: Record<string, string> } = {},
): Response {
  const body = {
    type: 'about:blank',
    title: extra.title ?? TITLES[status] ?? 'Error',
    status,
    code,
    detail,
    ...(extra.errors?.length ? { errors: extra.errors } : {}),
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store', ...extra.headers },
  });
}

/** The shop's endpoints answer only its own pages (sameOrigin). */
export function crossSite(): Response {
  return refusal(403, 'cross_site', "This endpoint answers the shop's own pages only.");
}

/** An API problem the shopper caused keeps its code; anything else is a plain 503. */
export function fromError(error: unknown): Response {
  if (error instanceof SiteApiError && error.status < 500) return refusal(error.status === 404 ? 404 : 422, error.code, error.detail);
  return refusal(503, 'unavailable', 'The shop cannot answer this right now; try again in a moment.');
}

export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });
}

/** A form the shop's own pages post is a few fields; anything larger is not one of them. */
export const MAX_FORM_BYTES = 4096;

/**
 * Reads an `application/x-www-form-urlencoded` body (what a form posts without JavaScript,
 * and what the pages' scripts send), or the answer that refuses it: 413 past 4 KiB — cut
 * off while it streams in, chunked or not, never read whole — and 400 for another media
 * type or bytes that are not UTF-8.
 */
export async function readForm(req: Request): Promise<URLSearchParams | Response> {
  const type = (req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded')
    return refusal(400, 'validation_failed', 'Send the form as application/x-www-form-urlencoded.');
  const text = await readTextCapped(req, MAX_FORM_BYTES).catch((error: unknown) => {
    if (error instanceof BodyTooLarge) return 'too_large' as const;
    throw error;
  });
  if (text === 'too_large') return refusal(413, 'payload_too_large', `A form here is at most ${MAX_FORM_BYTES} bytes.`);
  if (text === null) return refusal(400, 'validation_failed', 'The form is not UTF-8.');
  return new URLSearchParams(text);
}

/** The pages' scripts ask for JSON; a form posted without JavaScript does not. */
export function wantsJson(req: Request): boolean {
  return (req.headers.get('accept') ?? '').includes('application/json');
}
