import 'server-only';
import { openDatabase, type Database } from '@/db';
import { env } from './env';
import { processSlot } from '@/lib/process-state';

// The app's database: one per process (per server instance), opened from the environment on
// first use. It holds connections only, no shared state. What it offers is db/index.ts.
const holder = processSlot<{ database?: Database }>('database', () => ({}));

export function db(): Database {
  if (!holder.database) {
    const {
      DATABASE_URL,
      DATABASE_AUTH_TOKEN,
      DATABASE_BUSY_TIMEOUT_MS,
      DATABASE_TIMEOUT_MS,
      DATABASE_STATEMENT_TIMEOUT_MS,
      DATABASE_CHECKPOINT_INTERVAL_MS,
      OTEL_EXPORTER_OTLP_ENDPOINT,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
    } = env();
    holder.database = openDatabase({
      url: DATABASE_URL,
      authToken: DATABASE_AUTH_TOKEN,
      busyTimeoutMs: DATABASE_BUSY_TIMEOUT_MS,
      timeoutMs: DATABASE_TIMEOUT_MS,
      statementTimeoutMs: DATABASE_STATEMENT_TIMEOUT_MS,
      checkpointIntervalMs: DATABASE_CHECKPOINT_INTERVAL_MS,
      // A span per statement, when traces are exported (docs/operating.md#traces).
      traced: Boolean(OTEL_EXPORTER_OTLP_ENDPOINT || OTEL_EXPORTER_OTLP_TRACES_ENDPOINT),
    });
  }
  return holder.database;
}
