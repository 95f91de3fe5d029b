import { createClient, type Client } from '@libsql/client';
import { reportStorageRecovered, storageFaultActive } from '../faults';

/** Milliseconds one HTTP request to a remote database may take before it fails (then the API answers 503). */
export const DEFAULT_REMOTE_TIMEOUT_MS = 5000;

/** The code of the error a remote request that outlived its time fails with (db/faults.ts: unreachable). */
export const REMOTE_TIMEOUT_CODE = 'DATABASE_TIMEOUT';

/**
 * A libSQL client for a database server reached over the network (sqld, Turso: `libsql://`,
 * `https://`, `http://`), which speaks Hrana over HTTP. What differs from a local file
 * (local-client.ts), and why:
 *
 * - A timeout on every request. The client has none of its own (its `timeout` option is the
 *   busy timeout of local files), so a server that stops answering kept a request waiting
 *   for ever. Each HTTP request here is aborted after `timeoutMs` and fails with
 *   DATABASE_TIMEOUT; the API then answers 503 (faults.ts). For a moment after that, the
 *   requests fail at once (timedFetch). Only over HTTP (libsql://, https://, http://): a
 *   ws(s):// client takes no fetch, and has no time limit.
 * - No write queue, no lock waits, no checkpoints: the server orders writes and waits for
 *   locks itself (sqld takes the lock from a write transaction older than 5 s when another
 *   writer waits; that transaction then fails with TRANSACTION_TIMEOUT, a busy fault).
 * - No statement cache and no synchronous reads (sync-reads.ts answers "not available"):
 *   every query is a round trip, and there is no file of ours to open.
 * - No "impatient" view (db/client.ts withoutWaiting): a write that must not wait has no
 *   way to say so over HTTP; it waits at most the timeout.
 * - Every call is a round trip: an interactive transaction costs one request per step (its
 *   BEGIN rides with the first statement, its COMMIT is one of its own), a batch costs one
 *   (the server runs BEGIN … COMMIT itself). So what can go together does: independent reads
 *   as one read batch (db/statements.ts readTogether), a request's writes as one write batch
 *   (writeBatch); isOverNetwork lets a caller choose a shape for the network.
 * - One statement per execute: a text with several statements is refused by the server
 *   (SQL_MANY_STATEMENTS), and so are VACUUM, ATTACH and PRAGMA writes other than the
 *   foreign-key ones; the app sends none of them to a remote URL.
 */
export function createRemoteClient(config: { url: string; authToken?: string; timeoutMs?: number }): Client {
  const timeoutMs = config.timeoutMs ?? DEFAULT_REMOTE_TIMEOUT_MS;
  return createClient({ url: config.url, authToken: config.authToken, fetch: timedFetch(timeoutMs) });
}

/**
 * Is this client's database reached over a network? Then every request is a round trip, and
 * callers that can send their statements as one batch should (db/statements.ts readTogether,
 * writeBatch); a catalog import merges its search index in a transaction of its own
 * (lib/commerce/catalog/transfer/apply.ts), so the catalog's write lock is shorter by it.
 */
export function isOverNetwork(client: Client): boolean {
  return client.protocol !== 'file';
}

/**
 * fetch, aborted after `timeoutMs` (the body's reading too) with an error faults.ts knows; a
 * good answer clears a reported fault.
 *
 * After a request timed out, the requests of the next `timeoutMs` fail at once, without
 * asking the server, and the first one after that asks again. A page or an API request makes
 * several round trips one after another; against a stalled server each would wait out its
 * own timeout, and a page that reads the API a few times took many times DATABASE_TIMEOUT_MS.
 * This way it answers 503 within about one.
 */
export function timedFetch(timeoutMs: number) {
  let stalledUntil = 0;
  let lastAnswered = Date.now();
  return async (request: Request): Promise<Response> => {
    if (Date.now() < stalledUntil) {
      await request.body?.cancel();
      throw Object.assign(new Error(`the database did not answer within ${timeoutMs} ms a moment ago`), { code: REMOTE_TIMEOUT_CODE });
    }
    // After a pause (a CPU-bound stretch, such as planning a large import, keeps the event loop
    // from running), a kept-alive connection may have been closed by the server meanwhile
    // without the client having seen it yet: sent on it, the request fails with "other side
    // closed". One turn of the event loop lets the pool see the close first.
    if (Date.now() - lastAnswered > STALE_AFTER_MS) await new Promise((resolve) => setImmediate(resolve));
    // A controller the timer holds: an AbortSignal.timeout() signal is held only weakly by its
    // timer, and fetch holds it weakly too, so after a GC nothing would abort a stalled request.
    const controller = new AbortController();
    const signal = controller.signal;
    // It runs on after the headers (the body is read later, and a stall there is timed out too),
    // and holds no process open.
    const timer = setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), timeoutMs).unref();
    try {
      const response = await fetch(request, { signal });
      lastAnswered = Date.now();
      stalledUntil = 0;
      // The server answers again: a fault reported earlier has cleared (said once, faults.ts).
      if (response.ok && storageFaultActive()) reportStorageRecovered();
      return response;
    } catch (error) {
      if (signal.aborted) {
        stalledUntil = Date.now() + timeoutMs;
        throw Object.assign(new Error(`the database did not answer within ${timeoutMs} ms`, { cause: error }), {
          code: REMOTE_TIMEOUT_CODE,
        });
      }
      clearTimeout(timer);
      throw error;
    }
  };
}

/** Idle this long, a kept-alive connection may be gone (servers close them after a few seconds). */
const STALE_AFTER_MS = 1_000;
