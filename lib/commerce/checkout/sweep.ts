import { and, inArray, lt, sql } from 'drizzle-orm';
import { checkoutSessionLines, checkoutSessions, SWEEPABLE_SESSION } from '@/db/schema';
import type { Database } from '@/db/client';
import { reasonOf, warnSometimes } from '@/lib/platform/observability/warn-sometimes';

/**
 * How long an expired session is kept before it is deleted: as long as an Idempotency-Key
 * answer can be replayed (24 h), so a replayed "201 Created" never names a session that
 * is gone, and a shopper coming back late still gets "expired" rather than "not found".
 */
export const KEEP_AFTER_EXPIRY_MS = 24 * 3600 * 1000;
/** About one session creation in 100 also sweeps; each sweep deletes at most this many. */
export const SWEEP_PROBABILITY = 1 / 100;
export const SWEEP_BATCH = 500;

/**
 * Deletes checkout sessions that expired more than KEEP_AFTER_EXPIRY_MS ago and never
 * reached payment — anonymous carts nobody will come back to — with their lines. Kept:
 * completed sessions (orders) and any session with a payment (it may still be reconciled).
 * The candidates are found with a plain read (no write lock held while scanning) and
 * deleted by id in one short write batch; the status check is repeated there, so a
 * session that moved on meanwhile stays. Answers how many sessions were deleted.
 */
export async function sweepExpiredCheckoutSessions(database: Database, input: { now: number; batch?: number }): Promise<number> {
  const cutoff = input.now - KEEP_AFTER_EXPIRY_MS;
  // In the index's own words, so SQLite reads the sweep's index, not the table. (Sessions
  // created before migration 0007 may hold the text 'null' for "no payment".)
  const stale = and(lt(checkoutSessions.expiresAt, cutoff), sql.raw(SWEEPABLE_SESSION));
  const rows = await database
    .select({ id: checkoutSessions.id })
    .from(checkoutSessions)
    .where(stale)
    .limit(input.batch ?? SWEEP_BATCH);
  if (rows.length === 0) return 0;
  const ids = rows.map((r) => r.id);
  const [, deleted] = await database.batch([
    database.delete(checkoutSessionLines).where(
      inArray(
        checkoutSessionLines.sessionId,
        database
          .select({ id: checkoutSessions.id })
          .from(checkoutSessions)
          .where(and(inArray(checkoutSessions.id, ids), stale)),
      ),
    ),
    database
      .delete(checkoutSessions)
      .where(and(inArray(checkoutSessions.id, ids), stale))
      .returning({ id: checkoutSessions.id }),
  ]);
  return deleted.length;
}

const warn = warnSometimes();

/**
 * What a session creation does about old sessions: now and then (SWEEP_PROBABILITY) a sweep,
 * to run once the answer is sent (`later`). A failed sweep only leaves more for the next
 * one, so it is not the shopper's problem; it is logged, at most once a minute, so one that
 * always fails is seen.
 */
export function maybeSweepExpiredCheckoutSessions(
  database: Database,
  later: (task: () => Promise<void>) => void,
  random = Math.random,
): void {
  if (random() >= SWEEP_PROBABILITY) return;
  later(async () => {
    await sweepExpiredCheckoutSessions(database, { now: Date.now() }).catch((error: unknown) =>
      warn(`[checkout] sweeping expired sessions failed: ${reasonOf(error)}`),
    );
  });
}
