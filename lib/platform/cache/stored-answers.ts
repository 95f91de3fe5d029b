import { deleteInSteps, execute, readBatch, syncReads, withoutWaiting, writeBatch, type Database, type Statement } from '@/db';
import { env } from '@/lib/env';
import { isLoopbackHost } from '@/lib/loopback';
import { reasonOf, warnSometimes } from '@/lib/platform/observability/warn-sometimes';
import { countCache } from '@/lib/platform/observability/metrics';
import type { Answer } from './memo';
import type { Scoped } from './catalog-changes';

/**
 * Product answers kept in the database (table stored_answers) as they are sent, beside each
 * process's answer cache in memory (memo.ts): what one instance built, every other instance
 * serves without building it again. A new instance (a deploy, a serverless start, a restart)
 * meets a catalog that others have already read, so its first pass costs what a hit costs
 * plus one indexed read, where building an answer costs its statement, the answer's assembly,
 * its serialising and its ETag.
 *
 * An answer is kept with the catalog version it was read at and the scopes it shows, and
 * served under the same rule as one kept in memory: while none of them, nor the Site, changed
 * since (catalog-changes.ts). It answers only for the build that made it (the answer's shape
 * is the code's). A failed read or write costs only the answer's building again.
 */
export type AnswerAddress = { siteId: string; origin: string; market: string; locale: string; handle: string };
export type StoredAnswer = Answer & Scoped;

/**
 * What answers and pages kept in the database are valid for besides the catalog: this
 * build's code and asset names. Set at build time (next.config.mjs); a process outside a
 * build (tests, scripts) has its own.
 */
export const STORED_BUILD = process.env.SHOP_BUILD_ID || `unbuilt-${process.pid}`;

/**
 * Whether answers and pages made for this origin are kept in the database. The origin comes
 * from the Host header unless STOREFRONT_ORIGIN is set, so without it only this machine's own
 * names are: made-up Host headers must not fill the database.
 */
export function keptInDatabase(origin: string): boolean {
  const configured = env().STOREFRONT_ORIGIN;
  if (configured) return origin === configured;
  try {
    return isLoopbackHost(new URL(origin).hostname);
  } catch {
    return false;
  }
}

const FIND_SQL = `SELECT body, etag, valid_at, scopes FROM stored_answers WHERE site_id = ? AND origin = ? AND market = ?
  AND locale = ? AND handle = ? AND build = ?`;
const reads = syncReads({ answer: { sql: FIND_SQL, raw: true } });

/** For GET /metrics: how often a build was spared (a hit) or not. */
const counted = { name: 'stored-answers', hits: 0, misses: 0 };
countCache(counted);

/**
 * The answer kept at this address by this build, if there is one (of whichever version: the
 * caller judges it). Alone, it is read at once on a local file (a prepared statement, no
 * promise), else by an ordinary query, and null when the database cannot say. With
 * `alongside` (over a network: the answer's own read, should it have to be built) both go in
 * one request, so an answer no instance has built yet costs no round trip more than before
 * answers were stored; errors are then that read's to answer for.
 */
export async function storedAnswer(
  database: Database,
  address: AnswerAddress,
  alongside?: Statement,
): Promise<{ stored: StoredAnswer | null; row?: ArrayLike<unknown> }> {
  const args = [address.siteId, address.origin, address.market, address.locale, address.handle, STORED_BUILD];
  if (alongside) {
    const [found, read] = await readBatch(database, [{ sql: FIND_SQL, args }, alongside]);
    return { stored: answerOf(found!.rows[0]), row: read!.rows[0] };
  }
  try {
    const row = await reads.run(database, (reader) => (reader.get('answer', ...args) as unknown[] | undefined) ?? null);
    const values = row !== undefined ? row : await execute(database, { sql: FIND_SQL, args }).then((r) => r.rows[0]);
    return { stored: answerOf(values ?? undefined) };
  } catch (error) {
    warn(`[cache] stored answers could not be read (${reasonOf(error)}); answers are built meanwhile`);
    return { stored: null };
  }
}

function answerOf(values: ArrayLike<unknown> | undefined): StoredAnswer | null {
  if (!values) return null;
  const [text, etag, validAt, scopes] = Array.from(values);
  return { text: String(text), etag: String(etag), validAt: Number(validAt), scopes: String(scopes).split(',') };
}

/** Counts a stored answer that spared a build (`served`) or did not. */
export function countStored(served: boolean): void {
  if (served) counted.hits++;
  else counted.misses++;
}

/**
 * Keeps an answer just built, with the version it was read at and its scopes. Written in
 * batches (one transaction for up to BATCH answers, or what came within WAIT_MS), after the
 * answer has gone out, and never waiting for another process's write: a pass over a cold
 * catalog writes a few hundred times, not once a read. A row never goes back to an older
 * version than it holds.
 */
export function storeAnswer(database: Database, address: AnswerAddress, answer: StoredAnswer): void {
  if (!keptInDatabase(address.origin) || answer.scopes.some((scope) => scope.includes(','))) return;
  let queue = queues.get(database);
  if (!queue) queues.set(database, (queue = new Map()));
  const id = JSON.stringify([address.siteId, address.origin, address.market, address.locale, address.handle]);
  queue.set(id, {
    sql: UPSERT_SQL,
    args: [
      address.siteId,
      address.origin,
      address.market,
      address.locale,
      address.handle,
      STORED_BUILD,
      answer.validAt,
      answer.scopes.join(','),
      answer.etag,
      Date.now(),
      answer.text,
    ],
  });
  if (queue.size >= BATCH) void flushStoredAnswers(database);
  else if (!timers.has(database)) {
    const timer = setTimeout(() => void flushStoredAnswers(database), WAIT_MS);
    timer.unref();
    timers.set(database, timer);
  }
}

const BATCH = 64;
const WAIT_MS = 200;
const UPSERT_SQL = `INSERT INTO stored_answers (site_id, origin, market, locale, handle, build, valid_at, scopes, etag, stored_at, body)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (site_id, origin, market, locale, handle, build) DO UPDATE SET valid_at = excluded.valid_at,
    scopes = excluded.scopes, etag = excluded.etag, stored_at = excluded.stored_at, body = excluded.body
  WHERE stored_answers.valid_at <= excluded.valid_at`;
const queues = new Map<Database, Map<string, Statement>>();
const timers = new Map<Database, ReturnType<typeof setTimeout>>();

/** Writes what is queued for `database` now (also before a process stops). */
export async function flushStoredAnswers(database: Database): Promise<void> {
  const timer = timers.get(database);
  if (timer) clearTimeout(timer);
  timers.delete(database);
  const queue = queues.get(database);
  queues.delete(database);
  if (!queue || queue.size === 0) return;
  try {
    await writeBatch(withoutWaiting(database), [...queue.values()]);
  } catch (error) {
    // Busy with another process's write, or closed: these answers are built again when asked.
    warn(`[cache] answers could not be stored (${reasonOf(error)}); they are built again when asked`);
  }
}

/**
 * Removes answers that can never be served again: made by another build more than `graceMs`
 * ago (during a deploy, instances of the previous build may still serve theirs), or of a
 * product or Site changed since (the product's next read stores it anew; one no longer
 * published never is). A step at a time (deleteInSteps), while `going()` allows, so no write
 * holds the lock or the process for long.
 */
export function purgeDeadAnswers(
  database: Database,
  now: number,
  graceMs: number,
  steps: { chunk?: number; going?: () => boolean } = {},
): Promise<{ deleted: number; steps: number }> {
  return deleteInSteps(
    database,
    'stored_answers',
    `(build <> ? AND stored_at < ?)
      OR EXISTS (SELECT 1 FROM catalog_changes c WHERE c.site_id = stored_answers.site_id
        AND c.scope IN ('site', 'product:' || stored_answers.handle) AND c.version > stored_answers.valid_at)`,
    [STORED_BUILD, now - graceMs],
    steps,
  );
}

const warn = warnSometimes();
