/**
 * Runs once when a server instance starts (Next's instrumentation hook), before it answers
 * any request Next hands to our code. Node runtime only: Next reads NEXT_RUNTIME at build
 * time to drop this elsewhere.
 * - the server guard (lib/http/server-guard.ts): the shopper's socket address in a header
 *   of its own, page bodies cut off at their limit, TRACE answered;
 * - the background outbox drain (lib/mail/worker.ts): it needs the database driver and SMTP.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { guardServer } = await import('./lib/http/server-guard');
  guardServer();
  const { startOutboxWorker } = await import('./lib/mail/worker');
  startOutboxWorker();
}
