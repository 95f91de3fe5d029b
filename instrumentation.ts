/**
 * Runs once when a server instance starts (Next's instrumentation hook), before it answers
 * any request Next hands to our code: lib/server/start.ts says what it starts. Node runtime
 * only. The import sits inside the runtime check so that Next, which also compiles this file
 * for the Edge runtime and reads NEXT_RUNTIME at build time, drops it there: the Edge build
 * then never sees the Node APIs the server's start uses.
 *
 * Traces first (docs/operating.md#traces): when OTEL_EXPORTER_OTLP_ENDPOINT is set, the
 * OpenTelemetry SDK is registered before anything else, so Next's own spans and ours go to
 * the collector; unset, the SDK is never even loaded.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { startServer } = await import('./lib/server/start');
    await startServer();
  }
}
