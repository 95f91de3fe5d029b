import { SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { Client, InArgs, InStatement, Transaction, TransactionMode } from '@libsql/client';

/**
 * The client, with a span for each statement it runs (and each batch, and each transaction's
 * statements): `db.system` sqlite, the statement's text as drizzle sent it (its values are
 * arguments, never part of the text). Each span is a child of the span active when the
 * statement was asked for: the API request's, a job's. Only when traces are exported
 * (lib/db.ts asks for it); otherwise the client is used as it is, at no cost.
 */
export function tracedClient<C extends Client>(client: C): C {
  return new Proxy(client, {
    get(target, key) {
      if (key === TRACED) return true;
      if (key === 'execute')
        return (stmt: InStatement | string, args?: InArgs) =>
          spanned(sqlOf(stmt), () => (typeof stmt === 'string' ? target.execute(stmt, args) : target.execute(stmt)));
      if (key === 'batch')
        return (stmts: Array<InStatement | [string, InArgs?]>, mode?: TransactionMode) =>
          spannedBatch(stmts, () => target.batch(stmts, mode));
      if (key === 'transaction') return async (mode?: TransactionMode) => tracedTransaction(await target.transaction(mode));
      // The impatient view of a local client (db/client.ts withoutWaiting) is traced too.
      if (key === 'impatient') {
        const impatient = Reflect.get(target, key, target) as Client | undefined;
        return impatient ? tracedClient(impatient) : impatient;
      }
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function tracedTransaction(tx: Transaction): Transaction {
  return new Proxy(tx, {
    get(target, key) {
      if (key === 'execute') return (stmt: InStatement) => spanned(sqlOf(stmt), () => target.execute(stmt));
      if (key === 'batch') return (stmts: InStatement[]) => spannedBatch(stmts, () => target.batch(stmts));
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const tracer = () => trace.getTracer('site-delivery/db');
const TRACED = Symbol.for('site-delivery.traced-client');

/** Is this a traced client (its statements' spans wanted)? */
export function isTraced(client: object): boolean {
  return (client as Record<symbol, unknown>)[TRACED] === true;
}

/** A statement run synchronously (./sync-reads.ts), in a span of its own. */
export function syncSpan<T>(sql: string, run: () => T): T {
  const operation = operationOf(sql);
  const span = tracer().startSpan(operation, {
    kind: SpanKind.CLIENT,
    attributes: {
      'db.system': 'sqlite',
      'db.system.name': 'sqlite',
      'db.statement': sql,
      'db.query.text': sql,
      'db.operation.name': operation,
    },
  });
  try {
    return run();
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'error' });
    throw error;
  } finally {
    span.end();
  }
}

function spanned<T>(sql: string, run: () => Promise<T>): Promise<T> {
  const operation = operationOf(sql);
  return tracer().startActiveSpan(
    operation,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'db.system': 'sqlite',
        'db.system.name': 'sqlite',
        'db.statement': sql,
        'db.query.text': sql,
        'db.operation.name': operation,
      },
    },
    (span) => settle(span, run),
  );
}

function spannedBatch<T>(stmts: Array<InStatement | [string, InArgs?]>, run: () => Promise<T>): Promise<T> {
  const texts = stmts.map((s) => (Array.isArray(s) ? s[0] : sqlOf(s)));
  return tracer().startActiveSpan(
    'BATCH',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'db.system': 'sqlite',
        'db.system.name': 'sqlite',
        'db.statement': texts.join(';\n'),
        'db.query.text': texts.join(';\n'),
        'db.operation.name': 'BATCH',
        'db.operation.batch.size': texts.length,
      },
    },
    (span) => settle(span, run),
  );
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
