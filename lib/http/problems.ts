import type { ZodError } from 'zod';
import type { FieldError, ProblemCode } from '@/lib/commerce/errors';

/** The one table of contract codes: status and title of each. */
export const PROBLEMS: Record<ProblemCode, { status: number; title: string }> = {
  unauthorized: { status: 401, title: 'Unauthorized' },
  insufficient_scope: { status: 403, title: 'Insufficient scope' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  validation_failed: { status: 422, title: 'Validation failed' },
  invalid_json: { status: 400, title: 'Invalid JSON' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unknown_market: { status: 422, title: 'Unknown market' },
  unsupported_locale: { status: 422, title: 'Unsupported locale' },
  too_many_variant_ids: { status: 422, title: 'Too many variant ids' },
  consent_required: { status: 422, title: 'Consent required' },
  unknown_flow: { status: 422, title: 'Unknown notification flow' },
  unknown_token: { status: 404, title: 'Unknown token' },
  token_expired: { status: 410, title: 'Token expired' },
  unknown_variant: { status: 422, title: 'Unknown variant' },
  insufficient_stock: { status: 409, title: 'Insufficient stock' },
  idempotency_key_reused: { status: 422, title: 'Idempotency key reused' },
  idempotency_key_in_use: { status: 409, title: 'Idempotency key in use' },
  session_not_open: { status: 409, title: 'Session not open' },
  session_expired: { status: 410, title: 'Session expired' },
  precondition_failed: { status: 412, title: 'Precondition failed' },
  country_not_in_market: { status: 422, title: 'Country not in market' },
  unsupported_country: { status: 422, title: 'Unsupported country' },
  unknown_delivery_option: { status: 422, title: 'Unknown delivery option' },
  session_incomplete: { status: 409, title: 'Session incomplete' },
  rate_limited: { status: 429, title: 'Too many requests' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
  internal_error: { status: 500, title: 'Internal server error' },
};

export const PROBLEM_TYPE_BASE = 'https://site-delivery.dev/problems/';

export type ProblemInit = {
  code: ProblemCode;
  detail: string;
  requestId: string;
  errors?: FieldError[];
  extensions?: Record<string, unknown>;
  headers?: Record<string, string>;
};

export function problemResponse({ code, detail, requestId, errors, extensions, headers }: ProblemInit): Response {
  const { status, title } = PROBLEMS[code];
  const body = {
    ...extensions,
    type: `${PROBLEM_TYPE_BASE}${code.replaceAll('_', '-')}`,
    title,
    status,
    detail,
    code,
    requestId,
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store', ...headers },
  });
}

/** RFC 6901: `~` → `~0`, `/` → `~1`. */
function escapePointerToken(token: PropertyKey): string {
  return String(token).replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * One field error per zod issue. Body paths are plain pointers (`/lines/2/quantity`);
 * query and path parameters use `#/query/<name>` and `#/path/<name>`.
 */
export function zodFieldErrors(error: ZodError, where: 'body' | 'query' | 'path'): FieldError[] {
  return error.issues.slice(0, 50).flatMap((issue) => {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
    return keys.map((path) => {
      const tokens = path.map(escapePointerToken).join('/');
      const pointer = where === 'body' ? (tokens ? `/${tokens}` : '') : `#/${where}/${tokens}`;
      const code = issue.code === 'unrecognized_keys' ? 'unknown_field' : issue.code;
      const detail = issue.code === 'unrecognized_keys' ? 'Unknown field.' : issue.message;
      return { pointer, code, detail };
    });
  });
}
