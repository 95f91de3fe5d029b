import { isDeepStrictEqual } from 'node:util';
import type { Statement } from '@/db';
import { and, asc, eq, getTableColumns, sql, type Table } from 'drizzle-orm';
import { checkoutSessionLines, checkoutSessions } from '@/db/schema';
import type { Database, DbOrTx, Tx } from '@/db/client';
import { prepared, statementOf } from '@/db/prepared';
import { DomainError, NotFound } from '@/lib/platform/errors';
import { assertOpen, isDue, transition } from './state';

export type SessionRow = typeof checkoutSessions.$inferSelect;
export type LineRow = Omit<typeof checkoutSessionLines.$inferSelect, 'sessionId'>;
export type LoadedSession = SessionRow & { lines: LineRow[] };
/** Columns a change may set; id, Site, revision and timestamps are the store's business. */
export type SessionChanges = Partial<Omit<SessionRow, 'id' | 'siteId' | 'credentialId' | 'revision' | 'createdAt' | 'updatedAt'>>;

const ID_PATTERN = /^cs_[0-9A-Za-z]{8,64}$/;
const OPTIMISTIC_ATTEMPTS = 4;

/** Strong ETag of a session version: changes with every write (the revision). */
export function sessionEtag(session: Pick<SessionRow, 'id' | 'revision'>): string {
  return `"${session.id}-r${session.revision}"`;
}

/** If-Match uses the strong comparison (RFC 9110 §13.1.1): weak tags never match. */
export function ifMatchSatisfied(header: string | null | undefined, etag: string): boolean {
  if (header === null || header === undefined) return true;
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim() === etag);
}

/** A session of the Site with its lines, read in one snapshot. Another Site's or a malformed id is 404. */
export async function findSession(database: DbOrTx, siteId: string, id: string): Promise<LoadedSession> {
  if (!ID_PATTERN.test(id)) throw new NotFound('The checkout session');
  // One statement, one snapshot: the lines always belong to the row's revision.
  const rows = await database
    .select({ session: checkoutSessions, line: checkoutSessionLines })
    .from(checkoutSessions)
    .leftJoin(checkoutSessionLines, eq(checkoutSessionLines.sessionId, checkoutSessions.id))
    .where(and(eq(checkoutSessions.siteId, siteId), eq(checkoutSessions.id, id)))
    .orderBy(asc(checkoutSessionLines.position));
  const row = rows[0]?.session;
  if (!row) throw new NotFound('The checkout session');
  const lines = rows.flatMap((r) => (r.line ? [r.line] : []));
  return {
    ...row,
    lines: lines.map((l) => ({
      position: l.position,
      variantId: l.variantId,
      productHandle: l.productHandle,
      title: l.title,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      total: l.total,
      bundleId: l.bundleId,
      bundleQuantity: l.bundleQuantity,
    })),
  };
}

/** Reads a session and, when its time has run out, records that it expired (expiry is lazy). */
export async function loadSession(database: Database, siteId: string, id: string, now: number): Promise<LoadedSession> {
  for (let attempt = 0; attempt < OPTIMISTIC_ATTEMPTS; attempt += 1) {
    const session = await findSession(database, siteId, id);
    if (!isDue(session, now)) return session;
    const saved = await database.transaction((tx) =>
      saveSession(tx, session, { status: transition(session.status, 'expire') }, undefined, now),
    );
    if (saved) return saved;
  }
  throw busy();
}

/** The statements that insert a new session and its lines, for a batch of the caller's. */
export function sessionStatements(database: Database, row: SessionRow, lines: LineRow[]): Statement[] {
  const session = prepared(database, 'checkout.insertSession', (d) =>
    d.insert(checkoutSessions).values(placeholdersFor(checkoutSessions)).prepare(),
  );
  const statements = [statementOf(session, row)];
  if (lines.length > 0) {
    const many = prepared(database, `checkout.insertLines.${lines.length}`, (d) =>
      d
        .insert(checkoutSessionLines)
        .values(lines.map((_, i) => placeholdersFor(checkoutSessionLines, `${i}.`)))
        .prepare(),
    );
    const values: Record<string, unknown> = {};
    lines.forEach((line, i) => {
      for (const [name, value] of Object.entries({ ...line, sessionId: row.id })) values[`${i}.${name}`] = value;
    });
    statements.push(statementOf(many, values));
  }
  return statements;
}

/** Every column of a table as a placeholder of its own name (values are encoded per column when filled). */
function placeholdersFor<T extends Table>(table: T, prefix = ''): T['$inferInsert'] {
  return Object.fromEntries(
    Object.keys(getTableColumns(table)).map((name) => [name, sql.placeholder(`${prefix}${name}`)]),
  ) as T['$inferInsert'];
}

/**
 * Writes a change only if the session is still at the revision it was read at, bumping
 * the revision; lines, when given, are replaced in the same transaction. Answers null
 * when someone else wrote first (nothing is written then).
 */
export async function saveSession(
  tx: Tx,
  before: LoadedSession,
  changes: SessionChanges,
  lines: LineRow[] | undefined,
  now: number,
): Promise<LoadedSession | null> {
  const [row] = await tx
    .update(checkoutSessions)
    .set({ ...changes, revision: before.revision + 1, updatedAt: now })
    .where(
      and(eq(checkoutSessions.id, before.id), eq(checkoutSessions.siteId, before.siteId), eq(checkoutSessions.revision, before.revision)),
    )
    .returning();
  if (!row) return null;
  if (lines) {
    await tx.delete(checkoutSessionLines).where(eq(checkoutSessionLines.sessionId, before.id));
    if (lines.length > 0) await tx.insert(checkoutSessionLines).values(lines.map((line) => ({ ...line, sessionId: before.id })));
  }
  return { ...row, lines: lines ?? before.lines };
}

export type Mutation<R> = { changes: SessionChanges; lines?: LineRow[]; result: R };

/**
 * The one way a session changes: inside a write transaction (libSQL's are BEGIN
 * IMMEDIATE, so writers to a session queue up rather than interleave), read the
 * session, expire it if due, check If-Match and the state, compute the change, write it.
 * A session found past its expiry is recorded as expired and then answered 410.
 */
export async function mutateSession<R>(
  database: Database,
  siteId: string,
  id: string,
  options: { now: number; ifMatch?: string | null },
  change: (session: LoadedSession, tx: Tx) => Promise<Mutation<R>>,
): Promise<{ session: LoadedSession; result: R }> {
  const { now } = options;
  const outcome = await database.transaction(async (tx) => {
    const session = await findSession(tx, siteId, id);
    if (isDue(session, now)) {
      await saveSession(tx, session, { status: transition(session.status, 'expire') }, undefined, now);
      return { expired: true as const };
    }
    if (session.status === 'expired') return { expired: true as const };
    if (!ifMatchSatisfied(options.ifMatch, sessionEtag(session))) {
      throw new DomainError(
        'precondition_failed',
        'The session has changed since you read it (If-Match does not match its ETag). Read it again and retry.',
        {
          extensions: { etag: sessionEtag(session) },
        },
      );
    }
    assertOpen(session.status);
    const { changes, lines, result } = await change(session, tx);
    // A write that changes nothing keeps the revision: a client's ETag stays good.
    if (lines === undefined && unchanged(session, changes)) return { expired: false as const, session, result };
    const saved = await saveSession(tx, session, changes, lines, now);
    if (!saved) throw busy(); // cannot happen inside an immediate transaction; never write blind
    return { expired: false as const, session: saved, result };
  });
  if (outcome.expired) assertOpen('expired');
  return outcome as { session: LoadedSession; result: R };
}

function unchanged(session: LoadedSession, changes: SessionChanges): boolean {
  return Object.entries(changes).every(([column, value]) => isDeepStrictEqual(session[column as keyof SessionChanges], value));
}

export function busy(): DomainError {
  return new DomainError('service_unavailable', 'The checkout session is busy. Try again shortly.', { headers: { 'Retry-After': '1' } });
}
