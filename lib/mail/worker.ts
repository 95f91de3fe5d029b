import 'server-only';
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { configuredMailer, drainSettings } from './config';
import { drainOutbox, drainerId, type DrainResult } from './drain';

type Worker = { stop: () => Promise<void> };
const holder = globalThis as unknown as { __outboxWorker?: Worker };

/**
 * The background drain of `npm start`: a pass every few seconds, one at a time. Its timer
 * is unref'd, so it never keeps the process alive; `stop()` lets a running pass finish.
 * Off with OUTBOX_DRAIN=off (then run `npm run outbox -- drain` from cron), and never while
 * `next build` runs. One per process, however often it is asked for.
 */
export function startOutboxWorker(): Worker | null {
  const settings = env();
  if (settings.OUTBOX_DRAIN === 'off' || settings.NEXT_PHASE === 'phase-production-build') return null;
  if (holder.__outboxWorker) return holder.__outboxWorker;

  const mailer = configuredMailer();
  const options = { database: db(), drainer: drainerId(), ...drainSettings(mailer) };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let stopped = false;

  const pass = async () => {
    try {
      report(await drainOutbox(options));
    } catch (error) {
      // A busy or unreachable database: the next pass tries again; nothing was lost.
      console.error('[outbox] drain pass failed:', error instanceof Error ? error.message : error);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass().finally(() => {
        running = null;
        schedule();
      });
    }, settings.OUTBOX_DRAIN_INTERVAL_MS);
    timer.unref();
  };
  schedule();
  console.log(`[outbox] draining every ${settings.OUTBOX_DRAIN_INTERVAL_MS} ms via ${mailer.kind === 'smtp' ? 'SMTP' : '.eml files (no SMTP_URL)'}`);

  const worker: Worker = {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      mailer.close();
      if (holder.__outboxWorker === worker) holder.__outboxWorker = undefined;
    },
  };
  holder.__outboxWorker = worker;
  return worker;
}

function report(result: DrainResult) {
  const total = result.sent + result.retried + result.failed + result.skipped;
  if (total > 0) console.log(`[outbox] sent ${result.sent}, retrying ${result.retried}, parked ${result.failed}, skipped ${result.skipped}`);
}
