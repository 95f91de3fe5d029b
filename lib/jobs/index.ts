import 'server-only';
import { outboxJob } from './outbox';
import { renderAheadJob } from './render-ahead';
import { sweepJob } from './sweep';
import type { Job, PassContext, PassSummary } from './types';

export type { Job, PassContext, PassSummary } from './types';

/**
 * Every piece of background work, in one list. Each runs three ways: on timers under
 * `next start` (lib/jobs/timers.ts, off with JOBS=cron), once from `npm run job -- <name>`,
 * and from a platform's cron at GET /api/cron/<name> (vercel.json lists them). WAL
 * checkpoints are not a job: the driver runs them on its own thread whenever a process has a
 * local file open (db/driver/checkpointer.ts), and a libSQL server checkpoints its own log.
 */
export const JOBS: readonly Job[] = [outboxJob, renderAheadJob, sweepJob];

export function jobNamed(name: string): Job | undefined {
  return JOBS.find((job) => job.name === name);
}

/** One pass of a job, started and closed around it: what the CLI and the cron route run. */
export async function runJobOnce(job: Job, context: Omit<PassContext, 'stopped'>): Promise<PassSummary> {
  const runner = job.start();
  try {
    return await runner.pass({ ...context, stopped: () => false });
  } finally {
    await runner.close();
  }
}
