/**
 * Domain errors carry a stable contract `code`; lib/http/problems.ts maps each code to
 * its HTTP status and title. Domain code never thinks in status numbers.
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
  'unsupported_country',
  'unknown_delivery_option',
  'session_incomplete',
  'rate_limited',
  'service_unavailable',
  'internal_error',
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];

/** One entry per offending input: an RFC 6901 pointer into the request. */
export type FieldError = { pointer: string; code: string; detail: string };

export class DomainError extends Error {
  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly options: { errors?: FieldError[]; extensions?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'DomainError';
  }
}

export class NotFound extends DomainError {
  constructor(what = 'The resource') {
    super('not_found', `${what} was not found.`);
  }
}
