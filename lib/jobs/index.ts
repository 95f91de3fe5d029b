import 'server-only';
import { outboxJob } from './outbox';
import { renderAheadJob } from './render-ahead';
import { sweepJob } from './sweep';
import type { Job, JobRunner, PassContext, PassSummary } from './types';
import { logger } from '@/lib/platform/observability/logger';
import { inSpan, tracing } from '@/lib/platform/observability/tracing';

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
    return await tracedPass(job, runner, { ...context, stopped: () => false });
  } finally {
    await runner.close();
  }
}

/**
 * One pass, in a trace of its own when tracing is on (`job <name>`, its statements and mail
 * deliveries below it), and one log line when it did something: the job, what it did and how
 * long it took, like a request's line.
 */
export async function tracedPass(job: Job, runner: JobRunner, context: PassContext): Promise<PassSummary> {
  const started = performance.now();
  const summary = tracing()
    ? await inSpan(`job ${job.name}`, { root: true, attributes: { 'job.name': job.name } }, () => runner.pass(context))
    : await runner.pass(context);
  const did = Object.values(summary).some((v) => typeof v === 'number' && v > 0);
  if (did) logger().info({ job: job.name, ...summary, durationMs: Math.round(performance.now() - started) }, 'job pass');
  return summary;
}
