import type { FieldError, ProblemCode } from '@/lib/contract/problems';

export type { FieldError, ProblemCode };

/**
 * Domain errors carry a stable contract `code` (lib/contract/problems.ts gives each its
 * HTTP status and title). Domain code never thinks in status numbers.
 */
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
