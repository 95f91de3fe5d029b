/**
 * Runs once when a server instance starts (Next's instrumentation hook), before it answers
 * any request Next hands to our code. Node runtime only: Next reads NEXT_RUNTIME at build
 * time to drop this elsewhere.
 * - the server guard (lib/http/server-guard.ts): the shopper's socket address in a header
 *   of its own, page bodies cut off at their limit, TRACE answered, page renders bounded;
 * - the page cache (lib/security/page-cache-handler.mjs): in memory, a CSP on every page,
 *   and every product page it renders kept in the database too (lib/storefront-page-store.ts);
 * - rendering product pages ahead of shoppers (lib/storefront-render-ahead.ts);
 * - the background outbox drain (lib/mail/worker.ts): it needs the database driver and SMTP.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { guardServer } = await import('./lib/http/server-guard');
  const { env } = await import('./lib/env');
  let settings;
  try {
    settings = env();
  } catch (error) {
    // Next would log this and serve every request a 500, unguarded: stop instead, saying why.
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  guardServer({ pageRenders: settings.PAGE_RENDERS, pageRenderLine: settings.PAGE_RENDER_LINE });
  const { registerPageCache } = await import('./lib/security/page-cache-handler.mjs');
  const { keepRenderedPage } = await import('./lib/storefront-page-store');
  registerPageCache({ onPage: keepRenderedPage });
  const { startRenderAhead } = await import('./lib/storefront-render-ahead');
  startRenderAhead();
  const { startOutboxWorker } = await import('./lib/mail/worker');
  startOutboxWorker();
}
