// A libSQL server for tests: Hrana over HTTP (JSON, protocol versions 2 and 3, the pipeline
// endpoint with batons) over a local file, opened with the `libsql` package. It stands in for
// sqld or Turso as `smtp-server` stands in for a mail server: the app's own client
// (@libsql/client over http://) talks to it exactly as it would to the real thing.
//
// What it holds to, as sqld does: one statement per `execute` (more is SQL_MANY_STATEMENTS);
// no VACUUM, ATTACH/DETACH or PRAGMA writes other than the foreign-key ones (SQLITE_AUTH); a
// stream keeps its own connection, so an interactive transaction spans requests; a stream
// idle for 10 s expires; a write transaction older than 5 s loses its lock to a writer that
// waits for it (the holder's next statement fails with TRANSACTION_TIMEOUT).
//
// What tests get on top: a latency added to every request, a request counter, pause (requests
// are held unanswered, as by a stalled server), resume, stop (the port refuses) and start
// again, and an auth token (a request without it answers 401). Over HTTP too, under /_test/,
// for a server run on its own: `npx tsx scripts/libsql-test-server.ts --db FILE --port N`.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type DatabaseType from 'libsql';

// Loaded from the project's node_modules whatever bundles this file (Playwright, vitest, tsx).
const Database = createRequire(join(process.cwd(), 'package.json'))('libsql') as typeof DatabaseType;
type Connection = DatabaseType.Database;

export type LibsqlTestServerOptions = {
  /** The database file (created if missing). */
  path: string;
  port?: number;
  host?: string;
  /** Milliseconds added before every HTTP request is answered. */
  latencyMs?: number;
  /** When set, every request must carry `Authorization: Bearer <authToken>`; others answer 401. */
  authToken?: string;
  /** sqld's limits, shortened by tests that wait for them. */
  streamIdleMs?: number;
  writeTxTimeoutMs?: number;
};

export type LibsqlTestServer = {
  readonly url: string;
  readonly port: number;
  /** HTTP requests to the protocol's endpoints so far (version probes and pipelines). */
  requests(): number;
  /**
   * The statements of each pipeline request answered from now on (one entry a request, its
   * SQL texts in order; a version probe is an empty entry), until the returned stop is called:
   * what a test of round trips asserts, and what tells a bench's count apart.
   */
  record(): { requests: string[][]; stop(): void };
  /** The statements of each request sent while `work` ran (record, stopped when it settles). */
  requestsDuring(work: () => Promise<unknown>): Promise<string[][]>;
  /**
   * Requests in sequence from now on, until the returned stop is called: the longest run of
   * requests each sent after the one before was answered. Requests that went together (one
   * overlapping another) count once; a stream's close sent on its own (after the answer it
   * follows: nobody waits for it) and a request still unanswered at stop (work the caller
   * left running, such as keeping a page) not at all: what the caller waited for in turn.
   */
  sequence(): { stop(): number };
  /**
   * How long the server ran each request from now on (its statements, lock waits included;
   * the latency not), until the returned stop is called: the longest is the longest any
   * request held the write lock, or waited for it.
   */
  runs(): { stop(): number[] };
  /** Requests being held right now (paused, or waiting out the latency). */
  held(): number;
  setLatency(ms: number): void;
  /** Require another token from now on (undefined: none), as after a rotation the app has not caught up with. */
  setAuthToken(token: string | undefined): void;
  /** Hold every request unanswered (connections are still accepted) until resume(). */
  pause(): void;
  resume(): void;
  /** Stop listening and drop every connection: the port refuses, as with a server that is down. */
  stop(): Promise<void>;
  /** Listen again on the same port after stop(). */
  start(): Promise<void>;
  /** Stop and close the database file. */
  close(): Promise<void>;
};

type HranaValue =
  | { type: 'null' }
  | { type: 'integer'; value: string }
  | { type: 'float'; value: number }
  | { type: 'text'; value: string }
  | { type: 'blob'; base64: string };
type HranaStmt = {
  sql?: string;
  sql_id?: number;
  args?: HranaValue[];
  named_args?: Array<{ name: string; value: HranaValue }>;
  want_rows?: boolean;
};
type HranaCond =
  | { type: 'ok' | 'error'; step: number }
  | { type: 'not'; cond: HranaCond }
  | { type: 'and' | 'or'; conds: HranaCond[] }
  | { type: 'is_autocommit' };
type HranaBatch = { steps: Array<{ condition?: HranaCond | null; stmt: HranaStmt }> };
type StreamRequest = { type: string; stmt?: HranaStmt; batch?: HranaBatch; sql?: string; sql_id?: number };

/** An error answered to the client as Hrana's `{ message, code }`. */
class HranaError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Stream = {
  id: string;
  baton: string;
  connection: Connection;
  sqls: Map<number, string>;
  lastUsed: number;
  /** When its connection entered a transaction that has written (holds, or will take, the write lock). */
  writingSince: number | null;
  /** Its write transaction was rolled back for a waiting writer: its next statement says so. */
  timedOut: boolean;
  busy: boolean;
};

const BUSY_RETRY_MS = 10;
/** A writer that still cannot get the lock after this long fails with SQLITE_BUSY. */
const WRITER_GIVES_UP_MS = 20_000;

export async function startLibsqlTestServer(options: LibsqlTestServerOptions): Promise<LibsqlTestServer> {
  const streamIdleMs = options.streamIdleMs ?? 10_000;
  const writeTxTimeoutMs = options.writeTxTimeoutMs ?? 5_000;
  let latencyMs = options.latencyMs ?? 0;
  let authToken = options.authToken;
  let requestCount = 0;
  let paused = false;
  let waiting: Array<() => void> = [];
  let heldCount = 0;

  const setup = new Database(options.path);
  setup.exec('PRAGMA journal_mode = WAL');
  const idle: Connection[] = [setup];
  const open = () => {
    const connection = idle.pop() ?? new Database(options.path);
    // Lock waits happen here, asynchronously (withWriteLock), never inside the native call.
    connection.exec('PRAGMA busy_timeout = 0');
    return connection;
  };
  const release = (connection: Connection) => {
    try {
      if (connection.inTransaction) connection.exec('ROLLBACK');
      idle.push(connection);
    } catch {
      connection.close();
    }
  };

  const streams = new Map<string, Stream>();
  const closeStream = (stream: Stream) => {
    streams.delete(stream.id);
    release(stream.connection);
  };
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const stream of streams.values()) if (!stream.busy && now - stream.lastUsed > streamIdleMs) closeStream(stream);
  }, 500);
  sweeper.unref();

  /** sqld's lock stealing: a write transaction past its time gives way to a waiting writer. */
  const stealFrom = (waiter: Stream) => {
    const now = Date.now();
    for (const stream of streams.values()) {
      if (stream === waiter || stream.writingSince === null || now - stream.writingSince < writeTxTimeoutMs) continue;
      if (stream.connection.inTransaction) stream.connection.exec('ROLLBACK');
      stream.writingSince = null;
      stream.timedOut = true;
    }
  };

  const runStatement = async (stream: Stream, stmt: HranaStmt): Promise<unknown> => {
    if (stream.timedOut) {
      stream.timedOut = false;
      throw new HranaError('TRANSACTION_TIMEOUT', 'Transaction timed out');
    }
    const sql = sqlOf(stream, stmt);
    const statements = splitStatements(sql);
    if (statements.length === 0) throw new HranaError('SQL_NO_STATEMENT', 'SQL string does not contain any statement');
    if (statements.length > 1) throw new HranaError('SQL_MANY_STATEMENTS', 'SQL string contains more than one statement');
    refuseForbidden(statements[0]!);
    const args = argsOf(stmt);
    const prepared = prepare(stream.connection, sql);
    const started = Date.now();
    for (;;) {
      try {
        const result = execute(stream.connection, prepared, sql, args, stmt.want_rows !== false);
        noteTransaction(stream, statements[0]!);
        return result;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw asHranaError(error);
        if (Date.now() - started > WRITER_GIVES_UP_MS) {
          // A statement that failed busy stays active, and its connection then commits
          // nothing: this connection is done with, the stream goes on with a fresh one.
          const spent = stream.connection;
          stream.connection = new Database(options.path);
          stream.connection.exec('PRAGMA busy_timeout = 0');
          spent.close();
          throw asHranaError(error);
        }
        stealFrom(stream);
        await sleep(BUSY_RETRY_MS);
        // The same statement object again: running it resets it (a new one would leave it active).
      }
    }
  };

  const noteTransaction = (stream: Stream, sql: string) => {
    if (!stream.connection.inTransaction) stream.writingSince = null;
    else if (stream.writingSince === null && isWrite(sql)) stream.writingSince = Date.now();
  };

  const runBatch = async (stream: Stream, batch: HranaBatch) => {
    const results: Array<unknown | null> = [];
    const errors: Array<{ message: string; code: string } | null> = [];
    const holds = (cond: HranaCond | null | undefined): boolean => {
      if (!cond) return true;
      switch (cond.type) {
        case 'ok':
          return results[cond.step] != null;
        case 'error':
          return errors[cond.step] != null;
        case 'not':
          return !holds(cond.cond);
        case 'and':
          return cond.conds.every(holds);
        case 'or':
          return cond.conds.some(holds);
        case 'is_autocommit':
          return !stream.connection.inTransaction;
        default:
          throw new HranaError('PROTOCOL_ERROR', `unknown batch condition ${(cond as { type: string }).type}`);
      }
    };
    for (const [i, step] of batch.steps.entries()) {
      results[i] = null;
      errors[i] = null;
      if (!holds(step.condition)) continue;
      try {
        results[i] = await runStatement(stream, step.stmt);
      } catch (error) {
        errors[i] = hranaErrorBody(error);
      }
    }
    return { step_results: results, step_errors: errors };
  };

  const handle = async (stream: Stream, request: StreamRequest): Promise<{ type: string } & Record<string, unknown>> => {
    switch (request.type) {
      case 'execute':
        return { type: 'execute', result: await runStatement(stream, request.stmt!) };
      case 'batch':
        return { type: 'batch', result: await runBatch(stream, request.batch!) };
      case 'sequence': {
        const sql = sqlOf(stream, { sql: request.sql, sql_id: request.sql_id });
        for (const statement of splitStatements(sql)) await runStatement(stream, { sql: statement, want_rows: false });
        return { type: 'sequence' };
      }
      case 'describe': {
        const sql = sqlOf(stream, { sql: request.sql, sql_id: request.sql_id });
        const prepared = prepare(stream.connection, sql);
        const cols = prepared.reader ? prepared.columns().map((c) => ({ name: c.name, decltype: c.type ?? null })) : [];
        return { type: 'describe', result: { params: [], cols, is_explain: /^\s*explain\b/i.test(sql), is_readonly: !isWrite(sql) } };
      }
      case 'store_sql':
        stream.sqls.set(request.sql_id!, request.sql!);
        return { type: 'store_sql' };
      case 'close_sql':
        stream.sqls.delete(request.sql_id!);
        return { type: 'close_sql' };
      case 'get_autocommit':
        return { type: 'get_autocommit', is_autocommit: !stream.connection.inTransaction };
      default:
        throw new HranaError('PROTOCOL_ERROR', `unknown request type ${request.type}`);
    }
  };

  const pipeline = async (body: { baton?: string | null; requests: StreamRequest[] }) => {
    let stream: Stream;
    if (body.baton) {
      const id = body.baton.split('.')[0]!;
      const found = streams.get(id);
      if (!found || found.baton !== body.baton)
        return { status: 400, body: { message: 'The stream has expired or the baton is invalid', code: 'STREAM_EXPIRED' } };
      stream = found;
    } else {
      const id = randomBytes(9).toString('base64url');
      stream = {
        id,
        baton: '',
        connection: open(),
        sqls: new Map(),
        lastUsed: Date.now(),
        writingSince: null,
        timedOut: false,
        busy: false,
      };
      streams.set(id, stream);
    }
    stream.busy = true;
    const results: unknown[] = [];
    let closed = false;
    try {
      for (const request of body.requests) {
        if (request.type === 'close') {
          closed = true;
          results.push({ type: 'ok', response: { type: 'close' } });
          continue;
        }
        try {
          results.push({ type: 'ok', response: await handle(stream, request) });
        } catch (error) {
          results.push({ type: 'error', error: hranaErrorBody(error) });
        }
      }
    } finally {
      stream.busy = false;
      stream.lastUsed = Date.now();
    }
    if (closed) {
      closeStream(stream);
      return { status: 200, body: { baton: null, base_url: null, results } };
    }
    stream.baton = `${stream.id}.${randomBytes(9).toString('base64url')}`;
    return { status: 200, body: { baton: stream.baton, base_url: null, results } };
  };

  const answer = (res: ServerResponse, status: number, body: unknown) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, {
      'content-type': typeof body === 'string' ? 'text/plain' : 'application/json',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  };

  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');

    if (path.startsWith('/_test/')) return control(path, new URL(req.url ?? '/', 'http://x').searchParams, res);
    if (path === '/health') return answer(res, 200, '');

    requestCount += 1;
    const entry: string[] = [];
    for (const recorder of recorders) recorder.push(entry);
    const span: Span = [performance.now(), Infinity, false];
    if (sequences.size > 0) {
      for (const spans of sequences) spans.push(span);
      res.once('close', () => void (span[1] = performance.now()));
    }
    heldCount += 1;
    try {
      if (latencyMs > 0) await sleep(latencyMs);
      while (paused) await new Promise<void>((resolve) => waiting.push(resolve));
    } finally {
      heldCount -= 1;
    }
    if (res.destroyed) return;

    if (authToken !== undefined && req.headers.authorization !== `Bearer ${authToken}`) {
      return answer(res, 401, { error: 'Unauthorized: the authentication token is missing or invalid' });
    }
    if (req.method === 'GET' && (path === '/v2' || path === '/v3')) return answer(res, 200, '');
    if (req.method === 'POST' && (path === '/v2/pipeline' || path === '/v3/pipeline')) {
      let body: { baton?: string | null; requests: StreamRequest[] };
      try {
        body = JSON.parse(raw);
        if (!Array.isArray(body.requests)) throw new Error('requests');
      } catch {
        return answer(res, 400, { message: 'The request body is not a valid pipeline request', code: 'PROTOCOL_ERROR' });
      }
      // A stream's close alone (sent after the answer it follows, which nobody waits for).
      span[2] = body.requests.length > 0 && body.requests.every((r) => r.type === 'close');
      if (recorders.size > 0) {
        // A statement sent by id (store_sql) is recorded by its text.
        const known = new Map(body.requests.filter((r) => r.type === 'store_sql').map((r) => [r.sql_id, r.sql!]));
        const text = (stmt: { sql?: string; sql_id?: number }) =>
          stmt.sql ?? known.get(stmt.sql_id) ?? recordedSqls.get(stmt.sql_id!) ?? '?';
        for (const [id, sql] of known) recordedSqls.set(id!, sql);
        for (const request of body.requests) {
          if (request.type === 'execute') entry.push(text(request.stmt!));
          else if (request.type === 'batch') entry.push(...request.batch!.steps.map((s) => text(s.stmt)));
          else if (request.type === 'sequence') entry.push(text(request));
        }
      }
      const started = performance.now();
      const out = await pipeline(body);
      for (const list of runLists) list.push(performance.now() - started);
      return answer(res, out.status, out.body);
    }
    // The protobuf encoding and cursors are not spoken here: the client falls back to v2 JSON.
    return answer(res, 404, 'Not found');
  };

  const control = (path: string, query: URLSearchParams, res: ServerResponse) => {
    if (path === '/_test/stats')
      return answer(res, 200, { requests: requestCount, held: heldCount, streams: streams.size, paused, latencyMs });
    if (path === '/_test/latency') latencyMs = Number(query.get('ms') ?? 0);
    else if (path === '/_test/pause') paused = true;
    else if (path === '/_test/resume') resume();
    else return answer(res, 404, 'Not found');
    return answer(res, 200, { ok: true });
  };

  const resume = () => {
    paused = false;
    const release = waiting;
    waiting = [];
    for (const go of release) go();
  };

  const recorders = new Set<string[][]>();
  /** Start, end, and whether the request only closed a stream. */
  type Span = [number, number, boolean];
  const sequences = new Set<Span[]>();
  const recordedSqls = new Map<number, string>();
  const runLists = new Set<number[]>();
  const host = options.host ?? '127.0.0.1';
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  let port = options.port ?? 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((req, res) => {
        onRequest(req, res).catch((error) => {
          if (!res.headersSent && !res.destroyed) answer(res, 500, { message: String((error as Error).message), code: 'INTERNAL' });
        });
      });
      s.keepAliveTimeout = 5_000;
      s.on('connection', (socket) => {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
      });
      s.once('error', reject);
      s.listen(port, host, () => {
        const address = s.address();
        if (typeof address === 'object' && address) port = address.port;
        server = s;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      const s = server;
      server = undefined;
      if (!s) return resolve();
      s.close(() => resolve());
      for (const socket of sockets) socket.destroy();
      // Held requests are gone with their sockets; let their handlers end.
      resume();
      paused = false;
    });

  function record() {
    const requests: string[][] = [];
    recorders.add(requests);
    return { requests, stop: () => void recorders.delete(requests) };
  }

  await listen();
  return {
    get url() {
      return `http://${host}:${port}`;
    },
    get port() {
      return port;
    },
    requests: () => requestCount,
    record,
    async requestsDuring(work) {
      const recording = record();
      try {
        await work();
      } finally {
        recording.stop();
      }
      return recording.requests;
    },
    runs() {
      const list: number[] = [];
      runLists.add(list);
      return { stop: () => (runLists.delete(list), list) };
    },
    sequence() {
      const spans: Span[] = [];
      sequences.add(spans);
      return {
        stop: () => {
          sequences.delete(spans);
          // The most requests none of which overlaps the next: earliest answered first.
          let count = 0;
          let free = -Infinity;
          for (const [start, end, closeOnly] of [...spans].sort((a, b) => a[1] - b[1])) {
            // Still unanswered when the caller stopped counting: nothing it waited for.
            if (closeOnly || end === Infinity || start < free) continue;
            count += 1;
            free = end;
          }
          return count;
        },
      };
    },
    held: () => heldCount,
    setLatency: (ms) => void (latencyMs = ms),
    setAuthToken: (token) => void (authToken = token),
    pause: () => void (paused = true),
    resume,
    stop,
    start: listen,
    async close() {
      await stop();
      clearInterval(sweeper);
      for (const stream of [...streams.values()]) closeStream(stream);
      for (const connection of idle.splice(0)) connection.close();
    },
  };
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function sqlOf(stream: Stream, stmt: { sql?: string | null; sql_id?: number | null }): string {
  if (stmt.sql != null && stmt.sql_id != null) throw new HranaError('PROTOCOL_ERROR', 'Both sql and sql_id were given');
  if (stmt.sql != null) return stmt.sql;
  if (stmt.sql_id != null) {
    const sql = stream.sqls.get(stmt.sql_id);
    if (sql === undefined) throw new HranaError('PROTOCOL_ERROR', `SQL text ${stmt.sql_id} was not found`);
    return sql;
  }
  throw new HranaError('PROTOCOL_ERROR', 'Neither sql nor sql_id was given');
}

function valueOf(value: HranaValue): unknown {
  switch (value.type) {
    case 'null':
      return null;
    case 'integer':
      return BigInt(value.value);
    case 'float':
      return value.value;
    case 'text':
      return value.value;
    case 'blob':
      return Buffer.from(value.base64, 'base64');
    default:
      throw new HranaError('PROTOCOL_ERROR', 'Unexpected type of value');
  }
}

function argsOf(stmt: HranaStmt): unknown[] | Record<string, unknown> {
  const positional = stmt.args ?? [];
  const named = stmt.named_args ?? [];
  if (positional.length && named.length)
    throw new HranaError('ARGS_BOTH_POSITIONAL_AND_NAMED', 'Specifying both positional and named arguments is not supported');
  if (!named.length) return positional.map(valueOf);
  const out: Record<string, unknown> = {};
  for (const { name, value } of named) out[/^[:@$]/.test(name) ? name.slice(1) : name] = valueOf(value);
  return out;
}

function toHrana(value: unknown): HranaValue {
  if (value === null || value === undefined) return { type: 'null' };
  if (typeof value === 'bigint') return { type: 'integer', value: String(value) };
  if (typeof value === 'number') return Number.isInteger(value) ? { type: 'integer', value: String(value) } : { type: 'float', value };
  if (typeof value === 'string') return { type: 'text', value };
  if (value instanceof Uint8Array) return { type: 'blob', base64: Buffer.from(value).toString('base64') };
  return { type: 'text', value: String(value) };
}

function prepare(connection: Connection, sql: string) {
  try {
    return connection.prepare(sql);
  } catch (error) {
    throw asHranaError(error);
  }
}

function execute(
  connection: Connection,
  statement: DatabaseType.Statement,
  sql: string,
  args: unknown[] | Record<string, unknown>,
  wantRows: boolean,
) {
  statement.safeIntegers(true);
  if (statement.reader) {
    statement.raw(true);
    const columns = statement.columns();
    const rows = (statement.all(args) as unknown[][]).map((row) => row.map(toHrana));
    // A write with RETURNING reads rows too; what it changed is then asked of the connection.
    const changes = isWrite(sql) ? Number((connection.prepare('SELECT changes()').raw(true).get() as unknown[])[0]) : 0;
    return {
      cols: columns.map((c) => ({ name: c.name, decltype: c.type ?? null })),
      rows: wantRows ? rows : [],
      affected_row_count: changes,
      last_insert_rowid: null,
    };
  }
  const info = statement.run(args);
  return { cols: [], rows: [], affected_row_count: Number(info.changes), last_insert_rowid: String(info.lastInsertRowid) };
}

/** Extended SQLite codes come back as their primary code, as sqld answers them. */
function asHranaError(error: unknown): HranaError {
  if (error instanceof HranaError) return error;
  const code = String((error as { code?: unknown }).code ?? 'SQLITE_UNKNOWN');
  const message = error instanceof Error ? error.message : String(error);
  const primary = code.match(/^SQLITE_[A-Z]+/)?.[0] ?? 'SQLITE_UNKNOWN';
  if (primary === 'SQLITE_ERROR' && /syntax error|no such|incomplete input|unrecognized token/i.test(message)) {
    return new HranaError('SQL_INPUT_ERROR', `SQL input error: ${message}`);
  }
  return new HranaError(primary, `SQLite error: ${message}`);
}

function hranaErrorBody(error: unknown) {
  const e = asHranaError(error);
  return { message: e.message, code: e.code };
}

const READ_ONLY =
  /^\s*(select|values|explain|with\s[\s\S]*?\bselect\b(?![\s\S]*\b(insert|update|delete|replace)\b)|begin(\s+deferred)?(\s+transaction)?(\s+readonly)?\s*;?\s*$|commit|end|rollback|release|savepoint|pragma\s+\w+\s*(\(\s*[\w'"]*\s*\))?\s*;?\s*$)/i;
function isWrite(sql: string): boolean {
  return !READ_ONLY.test(stripComments(sql));
}

/** sqld's connections do not let a client change the file, or reach another one. */
function refuseForbidden(sql: string) {
  const text = stripComments(sql).trim();
  const denied = () => new HranaError('SQLITE_AUTH', 'SQLite error: not authorized');
  if (/^(vacuum|attach|detach)\b/i.test(text)) throw denied();
  const pragma = text.match(/^pragma\s+(?:\w+\.)?(\w+)\s*(=|\()?/i);
  if (pragma && pragma[2] !== undefined) {
    const name = pragma[1]!.toLowerCase();
    const allowedWrites = [
      'foreign_keys',
      'defer_foreign_keys',
      'foreign_key_check',
      'table_info',
      'table_xinfo',
      'index_list',
      'index_info',
      'index_xinfo',
      'foreign_key_list',
      'integrity_check',
      'quick_check',
    ];
    if (!allowedWrites.includes(name)) throw denied();
  }
}

function stripComments(sql: string): string {
  return sql.replace(/--[^\n]*/g, ' ').replace(/\/\*[\s\S]*?\*\//g, ' ');
}

/**
 * The statements in a SQL text, split at semicolons outside quotes, comments and a trigger's
 * BEGIN … END body (the text SQLite would run one by one). Empty statements are dropped.
 */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let start = 0;
  let i = 0;
  let words: string[] = []; // the statement's first words, to tell CREATE TRIGGER
  let inTriggerBody = false;
  let caseDepth = 0;
  const n = sql.length;
  const push = (end: number) => {
    const text = sql.slice(start, end);
    if (stripComments(text).trim()) out.push(text.trim());
    start = end + 1;
    words = [];
    inTriggerBody = false;
    caseDepth = 0;
  };
  while (i < n) {
    const c = sql[i]!;
    if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      for (; j < n; j++) {
        if (sql[j] === close) {
          if (close !== ']' && sql[j + 1] === close) j++;
          else break;
        }
      }
      i = j + 1;
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$]/.test(sql[j]!)) j++;
      const word = sql.slice(i, j).toUpperCase();
      if (words.length < 4) words.push(word);
      const isTrigger =
        words[0] === 'CREATE' && (words[1] === 'TRIGGER' || ((words[1] === 'TEMP' || words[1] === 'TEMPORARY') && words[2] === 'TRIGGER'));
      if (isTrigger) {
        if (word === 'BEGIN') inTriggerBody = true;
        else if (word === 'CASE') caseDepth++;
        else if (word === 'END') {
          if (caseDepth > 0) caseDepth--;
          else inTriggerBody = false;
        }
      }
      i = j;
    } else if (c === ';') {
      if (!inTriggerBody) push(i);
      i++;
    } else {
      i++;
    }
  }
  if (start < n) push(n);
  return out;
}
