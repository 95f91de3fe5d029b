import type { FieldError, ProblemBody } from './types';

/**
 * The API answered with a problem+json: a shopper-facing condition (sold out, bad
 * address, unknown market…) the caller can act on by its stable `code`.
 */
export class SiteApiError extends Error {
  readonly status: number;
  readonly code: ProblemBody['code'];
  readonly detail: string;
  readonly errors: FieldError[];
  readonly requestId: string;
  readonly problem: ProblemBody;

  constructor(problem: ProblemBody) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.name = 'SiteApiError';
    this.status = problem.status;
    this.code = problem.code;
    this.detail = problem.detail;
    this.errors = problem.errors ?? [];
    this.requestId = problem.requestId;
    this.problem = problem;
  }
}

/**
 * The API could not be reached or answered something that is not the contract (a
 * network failure, a timeout, a proxy's HTML error page, a body the schema rejects).
 * Pages show "try again" for this; it never carries the credential or a response body.
 */
export class SiteApiUnavailable extends Error {
  constructor(
    readonly operation: string,
    readonly reason: string,
    readonly status: number | null = null,
  ) {
    super(`Site API unavailable (${operation}): ${reason}`);
    this.name = 'SiteApiUnavailable';
  }
}

export function isSiteApiError(error: unknown, code?: ProblemBody['code']): error is SiteApiError {
  return error instanceof SiteApiError && (code === undefined || error.code === code);
}
