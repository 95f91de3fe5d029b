// A libSQL server (Hrana over HTTP) over a local file, for trying the remote path by hand and
// for the remote e2e run: `npx tsx scripts/libsql-test-server.ts --db data/remote.db --port 8080
// [--latency-ms 20] [--auth-token T]`. Tests control it under /_test/ (stats, pause, resume,
// latency?ms=N); see e2e/support/libsql-server.ts. Not a database server for production.
import { parseArgs } from 'node:util';
import { startLibsqlTestServer } from '../e2e/support/libsql-server';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    port: { type: 'string', default: '8080' },
    host: { type: 'string', default: '127.0.0.1' },
    'latency-ms': { type: 'string', default: '0' },
    'auth-token': { type: 'string' },
  },
});
if (!values.db) throw new Error('usage: libsql-test-server --db FILE [--port N] [--latency-ms N] [--auth-token T]');
const server = await startLibsqlTestServer({
  path: values.db,
  port: Number(values.port),
  host: values.host,
  latencyMs: Number(values['latency-ms']),
  authToken: values['auth-token'],
});
console.log(`libsql test server on ${server.url} over ${values.db}`);
const shutdown = () => void server.close().then(() => process.exit(0));
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
