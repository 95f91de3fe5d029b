import { env } from '@/lib/env';
import { guardServer } from './server-guard';
import { logger } from '@/lib/platform/observability/logger';
import { setDatabaseLog } from '@/db';
import { bindAsyncContextCheaply } from './async-context';
import { bubbleProxyAnswersCheaply, lookUpProxyOnce } from './proxy-in-next';

/**
 * What a server instance starts before it answers any request Next hands to our code
 * (called from instrumentation.ts, Node runtime only):
 * - the server guard (lib/server/server-guard.ts): the shopper's socket address in a header
 *   of its own, page bodies cut off at their limit, TRACE answered, page renders bounded;
 * - the page cache (lib/security/page-cache-handler.mjs): in memory, a CSP on every page,
 *   and every product page it renders kept in the database too (lib/storefront/kept-pages.ts);
 * - the background jobs on their timers (lib/jobs: the outbox drain, rendering product pages
 *   ahead, sweeps), unless JOBS=cron;
 * - trace export (lib/platform/observability/otel-sdk.ts), when OTEL_EXPORTER_OTLP_ENDPOINT is set;
 * - a clean stop on SIGTERM (lib/server/shutdown.ts), when Next leaves the signal to us;
 * - db/'s log lines (db/log.ts) through the process's logger;
 * - async context bound without Node 20's deprecated accessor (./async-context.ts);
 * - the proxy found once by Next's server, and its answers passed up without a stack trace
 *   (./proxy-in-next.ts).
 */
export async function startServer(): Promise<void> {
  bindAsyncContextCheaply();
  bubbleProxyAnswersCheaply();
  lookUpProxyOnce();
  // db/ cannot import the logger (it sits below lib/): its lines (storage faults, the
  // checkpoint worker) are handed to it here, so the server writes one kind of line.
  setDatabaseLog((level, fields, message) => logger()[level](fields, message));
  let settings;
  try {
    settings = env();
  } catch (error) {
    // Next would log this and serve every request a 500, unguarded: stop instead, saying why.
    logger().fatal(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  let traces: ReturnType<typeof import('@/lib/platform/observability/otel-sdk').startTraceExport> | null = null;
  if (settings.OTEL_EXPORTER_OTLP_ENDPOINT || settings.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
    const { startTraceExport } = await import('@/lib/platform/observability/otel-sdk');
    traces = startTraceExport();
  }
  guardServer({
    pageRenders: settings.PAGE_RENDERS,
    pageRenderLine: settings.PAGE_RENDER_LINE,
    pageRendersPerShopper: settings.PAGE_RENDERS_PER_SHOPPER,
    listPagesShare: settings.LIST_PAGES_SHARE_PER_SHOPPER,
    trustedHops: settings.TRUSTED_PROXY_HOPS,
    decideTrace: traces?.decideRequest,
  });
  const { registerPageCache } = await import('@/lib/security/page-cache-handler.mjs');
  const { isKeptPageKey, keepRenderedPage } = await import('@/lib/storefront/kept-pages');
  registerPageCache({ onPage: keepRenderedPage, memoryOnly: isKeptPageKey });
  const { startJobTimers } = await import('@/lib/jobs/timers');
  const timers = startJobTimers();
  if (settings.NEXT_MANUAL_SIG_HANDLE) {
    const { stopCleanlyOnSigterm } = await import('./shutdown');
    // The spans of the last requests and jobs go out before the process ends.
    stopCleanlyOnSigterm({
      graceMs: settings.SHUTDOWN_GRACE_MS,
      stopJobs: async () => {
        await timers?.stop();
        await traces?.shutdown();
      },
    });
  }
}
