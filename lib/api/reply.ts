import type { Statement } from '@/db';
import type { ZodType } from 'zod';
import type { CacheProfile } from '@/lib/platform/cache/http';
import type { KeptRead } from '@/lib/platform/cache/catalog-changes';

/** What a handler returns; the route wrapper turns it into a Response. */
export type Reply = {
  status: number;
  body: unknown;
  /**
   * The response schema `body` is checked against (and shaped by) before it is sent.
   * A body from a catalog cache (frozen, shared) is checked and serialised once, and its
   * bytes and ETag are reused for as long as the cache keeps it. A kept answer (`memo`) is
   * checked outside production only (lib/api/route.ts, keptAnswer).
   */
  schema?: ZodType;
  /**
   * Fields that differ in every response (a timestamp) added to a shared body: the body's
   * bytes are reused, these are appended to its top-level object, and the ETag is the
   * body's, weak (the answers are the same but for these).
   */
  stamp?: Record<string, string>;
  cache?: CacheProfile;
  contentLanguage?: string;
  headers?: Record<string, string>;
  /**
   * Writes the handler has prepared but not run (a route declared `deferredWrites`): the
   * wrapper commits them as one batch once the answer is built — with the record of the
   * answer under the request's Idempotency-Key, when it has one (lib/platform/idempotency/http.ts).
   */
  write?: Statement[];
  /**
   * The answer's bytes are kept under `key` (with the origin its links are made against):
   * `load` runs, and `body` is made, only when they are not. See okKept.
   */
  memo?: KeptRead & { load: () => Promise<unknown> };
};

export function ok(body: unknown, options: Omit<Reply, 'status' | 'body'> = {}): Reply {
  return { status: 200, body, ...options };
}

/**
 * A 200 whose bytes are kept by key in the answer cache (lib/platform/cache/memo.ts), for a
 * read whose every answer is worth keeping (a product by handle): a hit costs no object and
 * no serialising, and a kept answer weighs its bytes, not a parsed object's ~8×. Without a
 * key (a read inside a transaction) the answer is loaded and made as usual.
 */
export async function okKept<T>(
  kept: string | KeptRead | null,
  load: () => Promise<T>,
  options: Omit<Reply, 'status' | 'body' | 'memo'> = {},
): Promise<Reply> {
  if (kept === null) return ok(await load(), options);
  return { status: 200, body: undefined, memo: { ...(typeof kept === 'string' ? { key: kept } : kept), load }, ...options };
}

export function created(body: unknown, location: string, options: Omit<Reply, 'status' | 'body'> = {}): Reply {
  return { status: 201, body, cache: 'none', ...options, headers: { ...options.headers, Location: location } };
}

export function accepted(body: unknown, options: Omit<Reply, 'status' | 'body'> = {}): Reply {
  return { status: 202, body, cache: 'none', ...options };
}
