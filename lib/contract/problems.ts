/**
 * The API's stable error codes and the HTTP status and title of each: the one table the
 * route wrapper answers from and the OpenAPI document describes.
 */
export const PROBLEM_CODES = [
  'unauthorized',
  'insufficient_scope',
  'not_found',
  'method_not_allowed',
  'validation_failed',
  'invalid_json',
  'unsupported_media_type',
  'payload_too_large',
  'uri_too_long',
  'unknown_market',
  'unsupported_locale',
  'too_many_variant_ids',
  'consent_required',
  'unknown_flow',
  'unknown_token',
  'token_expired',
  'unknown_variant',
  'insufficient_stock',
  'idempotency_key_reused',
  'idempotency_key_in_use',
  'session_not_open',
  'session_expired',
  'precondition_failed',
  'country_not_in_market',
  'not_sold_in_market',
  'unsupported_country',
  'unknown_delivery_option',
  'session_incomplete',
  'rate_limited',
  'service_unavailable',
  'internal_error',
  'invalid_signature',
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];

/** One entry per offending input: an RFC 6901 pointer into the request. */
export type FieldError = { pointer: string; code: string; detail: string };

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
  uri_too_long: { status: 414, title: 'URI too long' },
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
  not_sold_in_market: { status: 422, title: 'Not sold in market' },
  unsupported_country: { status: 422, title: 'Unsupported country' },
  unknown_delivery_option: { status: 422, title: 'Unknown delivery option' },
  session_incomplete: { status: 409, title: 'Session incomplete' },
  rate_limited: { status: 429, title: 'Too many requests' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
  internal_error: { status: 500, title: 'Internal server error' },
  /** A payment provider's webhook whose signature does not verify (POST /api/webhooks/…, not /site/v1). */
  invalid_signature: { status: 400, title: 'Invalid signature' },
};
