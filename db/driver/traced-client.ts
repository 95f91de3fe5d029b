import { context, SpanKind, SpanStatusCode, trace, TraceFlags, type Span } from '@opentelemetry/api';
import type { Client, InArgs, InStatement, Transaction, TransactionMode } from '@libsql/client';

/**
 * The client, with a span for each statement it runs (and each batch, and each transaction's
 * statements): `db.system` sqlite, `db.statement` the statement's text as drizzle sent it (its
 * values are arguments, never part of the text), `db.operation.name` its first word. Each span
 * is a child of the span active when the statement was asked for: the API request's, a job's.
 * Only when traces are exported (lib/db.ts asks for it); otherwise the client is used as it
 * is, at no cost.
 *
 * A statement's span is a leaf: it is started beside the work, never made the active span
 * (which would run the statement inside a context switch of its own, for no child to see),
 * and each attribute is written once (no second copy under a newer convention's name: the
 * SQL text is the largest part of every exported span).
 */
export function tracedClient<C extends Client>(client: C): C {
  // Made once per client, not per property read: drizzle reads `execute` for every query.
  const execute = (stmt: InStatement | string, args?: InArgs) =>
    spanned(sqlOf(stmt), () => (typeof stmt === 'string' ? client.execute(stmt, args) : client.execute(stmt)));
  const batch = (stmts: Array<InStatement | [string, InArgs?]>, mode?: TransactionMode) =>
    spannedBatch(stmts, () => client.batch(stmts, mode));
  const transaction = async (mode?: TransactionMode) => tracedTransaction(await client.transaction(mode));
  let impatient: Client | undefined;
  const bound = boundMethods(client);
  return new Proxy(client, {
    get(target, key) {
      if (key === TRACED) return true;
      if (key === 'execute') return execute;
      if (key === 'batch') return batch;
      if (key === 'transaction') return transaction;
      // The impatient view of a local client (db/client.ts withoutWaiting) is traced too.
      if (key === 'impatient') {
        const plain = Reflect.get(target, key, target) as Client | undefined;
        return plain ? (impatient ??= tracedClient(plain)) : plain;
      }
      return bound(key);
    },
  });
}

function tracedTransaction(tx: Transaction): Transaction {
  const bound = boundMethods(tx);
  return new Proxy(tx, {
    get(target, key) {
      if (key === 'execute') return (stmt: InStatement) => spanned(sqlOf(stmt), () => target.execute(stmt));
      if (key === 'batch') return (stmts: InStatement[]) => spannedBatch(stmts, () => target.batch(stmts));
      return bound(key);
    },
  });
}

/** A property of `target`; a method bound to it, once per method. */
function boundMethods(target: object): (key: string | symbol) => unknown {
  const bound = new Map<string | symbol, { method: (...a: unknown[]) => unknown; bound: unknown }>();
  return (key) => {
    const value = Reflect.get(target, key, target) as unknown;
    if (typeof value !== 'function') return value;
    const known = bound.get(key);
    if (known?.method === value) return known.bound;
    const method = value as (...a: unknown[]) => unknown;
    const entry = { method, bound: method.bind(target) };
    bound.set(key, entry);
    return entry.bound;
  };
}

const tracer = () => trace.getTracer('site-delivery/db');
const TRACED = Symbol.for('site-delivery.traced-client');

/** Is this a traced client (its statements' spans wanted)? */
export function isTraced(client: object): boolean {
  return (client as Record<symbol, unknown>)[TRACED] === true;
}

/**
 * Is there no kept span to hang a statement's span below? Under one the sampler dropped it
 * would be dropped too (the samplers are parent-based: docs/operating.md#traces), and in a
 * trace that is not kept the statements are most of the spans a request would build for
 * nothing; with no span at all (a request whose trace was dropped as it arrived, work
 * outside any trace) it would be a trace of one statement.
 */
function parentDropped(): boolean {
  const parent = trace.getSpanContext(context.active());
  return parent === undefined || (parent.traceFlags & TraceFlags.SAMPLED) === 0;
}

/** A statement run synchronously (./sync-reads.ts), in a span of its own. */
export function syncSpan<T>(sql: string, run: () => T): T {
  if (parentDropped()) return run();
  const span = statementSpan(sql);
  try {
    return run();
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'error' });
    throw error;
  } finally {
    span.end();
  }
}

function statementSpan(sql: string): Span {
  const operation = operationOf(sql);
  return tracer().startSpan(operation, {
    kind: SpanKind.CLIENT,
    attributes: { 'db.system': 'sqlite', 'db.statement': sql, 'db.operation.name': operation },
  });
}

function spanned<T>(sql: string, run: () => Promise<T>): Promise<T> {
  return parentDropped() ? run() : settle(statementSpan(sql), run);
}

function spannedBatch<T>(stmts: Array<InStatement | [string, InArgs?]>, run: () => Promise<T>): Promise<T> {
  if (parentDropped()) return run();
  const span = tracer().startSpan('BATCH', {
    kind: SpanKind.CLIENT,
    attributes: {
      'db.system': 'sqlite',
      'db.statement': stmts.map((s) => (Array.isArray(s) ? s[0] : sqlOf(s))).join(';\n'),
      'db.operation.name': 'BATCH',
      'db.operation.batch.size': stmts.length,
    },
  });
  return settle(span, run);
}

async function settle<T>(span: Span, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    span.setStatus({ code: SpanStatusCode.ERROR, message: typeof code === 'string' ? code : 'error' });
    throw error;
  } finally {
    span.end();
  }
}

function sqlOf(stmt: InStatement | string): string {
  return typeof stmt === 'string' ? stmt : stmt.sql;
}

/** The statement's first word (SELECT, INSERT, …): the span's name, as the conventions ask. */
function operationOf(sql: string): string {
  return /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
}
