import 'server-only';
import { migrationState } from '@/db/migrate';
import { db } from '@/lib/db';

/** How long readiness waits for the database before it says not ready. */
export const READY_TIMEOUT_MS = 1000;

export type Readiness = { ready: true; migrations: 'current' | 'ahead' } | { ready: false; reason: string };

/**
 * Whether this instance can serve: the database answers within READY_TIMEOUT_MS and holds
 * every migration this build expects. A load balancer or orchestrator stops sending requests
 * to an instance that is not ready; liveness (/healthz) never asks the database, so a
 * database outage takes instances out of rotation without restarting them.
 */
export async function readiness(): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), READY_TIMEOUT_MS)));
  try {
    const state = await Promise.race([migrationState(db()), late]);
    if (state === 'late') return { ready: false, reason: `the database did not answer within ${READY_TIMEOUT_MS} ms` };
    if (state === 'behind') return { ready: false, reason: 'the database lacks migrations this build needs (run npm run db:migrate)' };
    return { ready: true, migrations: state };
  } catch {
    return { ready: false, reason: 'the database cannot be reached' };
  } finally {
    clearTimeout(timer);
  }
}
