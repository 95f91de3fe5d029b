import 'server-only';
import { sweepExpiredCheckoutSessions } from '@/lib/commerce/checkout/sweep';
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { purgeExpiredIdempotencyKeys } from '@/lib/platform/idempotency/store';
import { purgeRateLimitWindows } from '@/lib/platform/rate-limit/store';
import { purgeDeadAnswers } from '@/lib/platform/cache/stored-answers';
import type { Job, PassContext } from './types';

/**
 * Deletes what can no longer matter: checkout sessions long expired, Idempotency-Key answers
 * past their replay time, rate-limit windows past, stored product answers that can never be
 * served again. Requests already do a little of this now and then; the job does all of it on
 * a schedule, a batch at a time until nothing is left or its time is up, so a quiet shop's
 * tables shrink too.
 */
export const sweepJob: Job = {
  name: 'sweep',
  about: 'delete expired checkout sessions, idempotency answers, rate-limit windows and dead stored answers',
  everyMs: () => 10 * 60_000,
  start: () => ({ pass: sweepOnce, close: () => {} }),
};

async function sweepOnce(context: PassContext) {
  const database = db();
  const now = Date.now();
  const summary = { checkoutSessions: 0, idempotencyKeys: 0, rateLimitWindows: 0, storedAnswers: 0 };
  summary.rateLimitWindows = await purgeRateLimitWindows(database, { now, windowSeconds: env().RATE_LIMIT_WINDOW_SECONDS });
  summary.checkoutSessions = await untilDone(context, () => sweepExpiredCheckoutSessions(database, { now }));
  summary.idempotencyKeys = await untilDone(context, () => purgeExpiredIdempotencyKeys(database, now));
  // An answer of the previous build stays while that build's instances may still be serving.
  summary.storedAnswers = (
    await purgeDeadAnswers(database, now, 10 * 60_000, { going: () => !context.stopped() && Date.now() < context.deadline })
  ).deleted;
  return summary;
}

/** Batches until one deletes nothing: each is a short write, so others get the lock between them. */
async function untilDone(context: PassContext, batch: () => Promise<number>): Promise<number> {
  let total = 0;
  while (!context.stopped() && Date.now() < context.deadline) {
    const deleted = await batch();
    total += deleted;
    if (deleted === 0) break;
  }
  return total;
}
