import 'server-only';
import { env } from '@/lib/env';
import { reasonOf, warnSometimes } from '@/lib/platform/observability/warn-sometimes';
import { logger } from '@/lib/platform/observability/logger';
import { JOBS, tracedPass, type Job } from './index';
import { processSlot } from '@/lib/process-state';

type Timers = { stop: () => Promise<void> };
const holder = processSlot<{ timers?: Timers }>('jobTimers', () => ({}));

/** A timer's pass may take this long before it leaves the rest to the next pass. */
const PASS_BUDGET_MS = 5 * 60_000;

/**
 * The background work of `next start`: each job's passes on a timer of its own, one pass at
 * a time, each timer unref'd so it never keeps the process alive. Nothing runs with
 * JOBS=cron (a platform's cron calls /api/cron/<name> instead) or while `next build` runs.
 * One set per process, however often it is asked for; `stop()` lets running passes finish.
 */
export function startJobTimers(only?: readonly string[]): Timers | null {
  const settings = env();
  if (settings.NEXT_PHASE === 'phase-production-build') return null;
  if (settings.JOBS === 'cron') {
    logger().info('[jobs] JOBS=cron: no background timers; a cron calls /api/cron/<name>');
    return null;
  }
  if (holder.timers) return holder.timers;
  const frontDoor = `http://127.0.0.1:${settings.PORT}`;
  const running = JOBS.filter((job) => !only || only.includes(job.name)).flatMap((job) => {
    const everyMs = job.everyMs();
    return everyMs === null ? [] : [{ name: job.name, everyMs, ...onTimer(job, everyMs, frontDoor) }];
  });
  if (running.length > 0) logger().info(`[jobs] on timers: ${running.map((r) => `${r.name} every ${r.everyMs} ms`).join(', ')}`);
  const timers: Timers = {
    async stop() {
      await Promise.all(running.map((r) => r.stop()));
      if (holder.timers === timers) holder.timers = undefined;
    },
  };
  holder.timers = timers;
  return timers;
}

function onTimer(job: Job, everyMs: number, frontDoor: string): Timers {
  const runner = job.start();
  const warn = warnSometimes((message) => logger().warn({ job: job.name }, message));
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> | null = null;
  let stopped = false;
  let lastPass = Date.now();
  let lastWake = job.wake?.moved();
  // Work arrived here, or the idle time is up (or the job does not wait for work).
  const due = () => {
    if (!job.wake) return true;
    const moved = job.wake.moved();
    if (moved === lastWake && Date.now() - lastPass < job.wake.idleEveryMs()) return false;
    lastWake = moved;
    lastPass = Date.now();
    return true;
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      if (!due()) return schedule();
      current = tracedPass(job, runner, { deadline: Date.now() + PASS_BUDGET_MS, stopped: () => stopped, frontDoor })
        .then(() => undefined)
        // A busy or unreachable database: the next pass tries again; nothing was lost.
        .catch((error: unknown) => warn(`[jobs] ${job.name}: pass failed: ${reasonOf(error)}`))
        .finally(() => {
          current = null;
          schedule();
        });
    }, everyMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
      await runner.close();
    },
  };
}
