import type { z } from 'zod';
import type { Operation } from '@/lib/contract/operation';
import type { FieldError as FieldErrorSchema, Problem } from '@/lib/contract/common';

export type ProblemBody = Problem;
export type FieldError = z.infer<typeof FieldErrorSchema>;

type Shape<S> = S extends z.ZodType ? z.input<S> : never;

/** What a call to one operation takes: its own params / query / body, typed from the contract. */
export type CallInput<O extends Operation> = {
  params?: Shape<O['params']>;
  query?: Shape<O['query']>;
  body?: Shape<O['body']>;
  /** Sent as Idempotency-Key (POST only); a retried request then does nothing twice. */
  idempotencyKey?: string;
  /**
   * The shopper's address, forwarded as Site-Buyer-IP so limits apply per shopper; when
   * absent, the shopper of the current request (nameShoppersWith), null for none.
   */
  buyerIp?: string | null;
  /** Sent as If-Match (PATCH) so a stale form cannot overwrite a newer session. */
  ifMatch?: string;
  /**
   * Only these top-level fields of the answer are used: the read is logged in the render's
   * log (./reads.ts) by them alone (partTag), not by its ETag.
   */
  logFields?: string[];
};

export type CallOutput<O extends Operation> = z.output<O['success']['schema']>;

/** A successful answer with the headers a caller may need (ETag for If-Match, Location). */
export type CallResult<O extends Operation> = {
  data: CallOutput<O>;
  /** What was asked for, below /site/v1: path and query. */
  path: string;
  /** What the render's log noted for this read (./reads.ts): for a caller that keeps the answer for later renders. */
  readTag: string;
  status: number;
  etag: string | null;
  replayed: boolean;
};
