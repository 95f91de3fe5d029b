import type { z } from 'zod';
import type { ProblemCode } from './problems';

/** What a credential may do: `core` operations, or all (`extended`). */
export type Scope = 'core' | 'extended';

type AnyObject = z.ZodObject<z.ZodRawShape>;

/**
 * One operation of the API: the single source that both validates requests (the route
 * wrapper reads params/query/body from it) and describes them (the OpenAPI document).
 */
export type Operation = {
  operationId: string;
  method: 'get' | 'post' | 'patch';
  /** OpenAPI-style path below /site/v1, e.g. `/commerce/products/{handle}`. */
  path: string;
  scope: Scope;
  tag: string;
  summary: string;
  description?: string;
  params?: AnyObject;
  query?: AnyObject;
  body?: z.ZodType;
  success: { status: 200 | 201 | 202; description: string; schema: z.ZodType; headers?: string[] };
  /** Codes this operation can answer beyond the ones every operation can. */
  errors: ProblemCode[];
};

export function defineOperation<const O extends Operation>(operation: O): O {
  return operation;
}
