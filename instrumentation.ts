/**
 * Runs once when a server instance starts (Next's instrumentation hook): it starts the
 * background outbox drain (lib/mail/worker.ts). Node runtime only — the drain needs the
 * database driver and SMTP; Next reads NEXT_RUNTIME at build time to drop this elsewhere.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startOutboxWorker } = await import('./lib/mail/worker');
  startOutboxWorker();
}
