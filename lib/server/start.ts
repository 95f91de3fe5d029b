import { env } from '@/lib/env';
import { guardServer } from './server-guard';

/**
 * What a server instance starts before it answers any request Next hands to our code
 * (called from instrumentation.ts, Node runtime only):
 * - the server guard (lib/server/server-guard.ts): the shopper's socket address in a header
 *   of its own, page bodies cut off at their limit, TRACE answered, page renders bounded;
 * - the page cache (lib/security/page-cache-handler.mjs): in memory, a CSP on every page,
 *   and every product page it renders kept in the database too (lib/storefront-page-store.ts);
 * - the background jobs on their timers (lib/jobs: the outbox drain, rendering product pages
 *   ahead, sweeps), unless JOBS=cron;
 * - a clean stop on SIGTERM (lib/server/shutdown.ts), when Next leaves the signal to us.
 */
export async function startServer(): Promise<void> {
  let settings;
  try {
    settings = env();
  } catch (error) {
    // Next would log this and serve every request a 500, unguarded: stop instead, saying why.
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  guardServer({
    pageRenders: settings.PAGE_RENDERS, pageRenderLine: settings.PAGE_RENDER_LINE,
    pageRendersPerShopper: settings.PAGE_RENDERS_PER_SHOPPER, trustedHops: settings.TRUSTED_PROXY_HOPS,
  });
  const { registerPageCache } = await import('@/lib/security/page-cache-handler.mjs');
  const { keepRenderedPage } = await import('@/lib/storefront-page-store');
  registerPageCache({ onPage: keepRenderedPage });
  const { startJobTimers } = await import('@/lib/jobs/timers');
  const timers = startJobTimers();
  if (settings.NEXT_MANUAL_SIG_HANDLE) {
    const { stopCleanlyOnSigterm } = await import('./shutdown');
    stopCleanlyOnSigterm({ graceMs: settings.SHUTDOWN_GRACE_MS, stopJobs: async () => timers?.stop() });
  }
}
