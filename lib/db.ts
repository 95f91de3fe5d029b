import 'server-only';
import { openDatabase, type Database } from '@/db/client';
import { env } from './env';

// One client per process (per server instance). It holds connections only, no shared state.
const holder = globalThis as unknown as { __siteDb?: Database };

export function db(): Database {
  if (!holder.__siteDb) {
    const { DATABASE_URL, DATABASE_AUTH_TOKEN, DATABASE_BUSY_TIMEOUT_MS, DATABASE_TIMEOUT_MS, OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT } = env();
    holder.__siteDb = openDatabase({
      url: DATABASE_URL, authToken: DATABASE_AUTH_TOKEN, busyTimeoutMs: DATABASE_BUSY_TIMEOUT_MS, timeoutMs: DATABASE_TIMEOUT_MS,
      // A span per statement, when traces are exported (docs/operating.md#traces).
      traced: Boolean(OTEL_EXPORTER_OTLP_ENDPOINT || OTEL_EXPORTER_OTLP_TRACES_ENDPOINT),
    });
  }
  return holder.__siteDb;
}
