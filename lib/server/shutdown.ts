import 'server-only';
import type { Server } from 'node:http';
import { closeDatabase } from '@/db';
import { db } from '@/lib/db';
import { logger } from '@/lib/platform/observability/logger';
import { flushStoredAnswers } from '@/lib/platform/cache/stored-answers';
import { servingServers } from './server-guard';

/**
 * A clean stop on SIGTERM (what an orchestrator or a deploy sends before it kills a process):
 * take no new connection, let the requests in flight finish, let the jobs finish their pass
 * and stop (the outbox claims no further batch, so no mail is left half sent or sent twice),
 * close the database, and exit 0 — all within `graceMs`, after which the process exits anyway
 * (a message still leased then goes out again after its lease, as after a crash).
 * Only when Next leaves the signal to us (NEXT_MANUAL_SIG_HANDLE, which `npm start` sets):
 * otherwise Next's own handler exits at once.
 */
export function stopCleanlyOnSigterm(options: { graceMs: number; stopJobs: () => Promise<void> }): void {
  process.once('SIGTERM', () => {
    const started = Date.now();
    logger().info({ graceMs: options.graceMs }, 'SIGTERM: no new connections; finishing requests in flight and jobs');
    const drained = Promise.all([...servingServers()].map(closeServer));
    // Answers built by the last requests are written before the database closes (a cache: a
    // write that fails costs only their building again elsewhere).
    const finished = Promise.all([drained.then(() => flushStoredAnswers(db())), options.stopJobs()]).then(() => true);
    const late = new Promise<false>((resolve) => setTimeout(() => resolve(false), options.graceMs).unref());
    void Promise.race([finished, late])
      .then((done) => {
        if (!done) logger().warn({ graceMs: options.graceMs }, 'shutdown: still busy after the grace period; exiting anyway');
        closeDatabase(db());
        logger().info({ durationMs: Date.now() - started }, 'stopped');
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger().error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  });
}

/** Resolves once the server has no connection left; idle keep-alive ones are closed as they become idle. */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    server.close(() => {
      clearInterval(idle);
      resolve();
    });
    server.closeIdleConnections();
  });
}
