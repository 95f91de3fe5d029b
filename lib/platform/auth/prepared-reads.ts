import Database from 'libsql';
import type { Client } from '@libsql/client';
import type { DbOrTx } from '@/db/client';
import type { CredentialFields } from './credentials';

/**
 * The reads every request makes — the presented credential with its Site (and the
 * Site's catalog version, which the catalog caches key on), and the version alone — as
 * statements prepared once, on a read connection of their own to the same local file.
 *
 * Why: the libSQL client prepares (compiles) every statement again on every call; for
 * the credential join that is most of its cost (~230 µs against ~25 µs prepared, on the
 * benchmark machine), on every request. The answers are the same fresh, committed rows:
 * nothing here is cached but the compiled statements.
 *
 * Only for a local database file opened by the app (`file:` URL); a transaction, an
 * in-memory database or a remote libSQL server keeps the ordinary query (callers fall
 * back when this answers null).
 */
export type CredentialRow = Omit<CredentialFields, 'site'> & { siteId: string } & Omit<CredentialFields['site'], 'id'>;

type Statements = {
  connection: Database.Database;
  credential: Database.Statement<[string]>;
  version: Database.Statement<[string]>;
  epoch: Database.Statement<[]>;
  /** Credential rows this connection read, with the auth epoch they were read at. */
  credentials: Map<string, { row: CredentialRow | null; at: number }>;
};

/** Credentials remembered per connection (a process serves a handful; past this it starts again). */
const MAX_REMEMBERED_CREDENTIALS = 1024;

const CREDENTIAL_SQL = `SELECT c.id AS credentialId, c.scope AS scope, c.token_hash AS tokenHash, c.revoked_at AS revokedAt,
  s.id AS siteId, s.handle AS handle, s.name AS name, s.default_market_id AS defaultMarketId,
  s.default_locale AS defaultLocale, s.checkout_base_url AS checkoutBaseUrl, s.catalog_version AS catalogVersion
  FROM credentials c INNER JOIN sites s ON s.id = c.site_id WHERE c.token_hash = ?`;
const VERSION_SQL = 'SELECT catalog_version AS v FROM sites WHERE id = ?';
const EPOCH_SQL = 'SELECT n FROM auth_epoch WHERE id = 1';
/** Reads in WAL mode do not wait for writers; this only bounds a checkpoint's rare lock. */
const BUSY_TIMEOUT_MS = 5000;

const opened = new WeakMap<object, Promise<Statements | null>>();
/** The same statements once open, for reads that need not wait a turn of the event loop. */
const ready = new WeakMap<object, Statements>();

function localClient(database: DbOrTx): Client | null {
  const client = (database as { $client?: Client }).$client;
  return client && client.protocol === 'file' ? client : null;
}

async function open(client: Client): Promise<Statements | null> {
  // The file this client has open, from SQLite itself (so any URL form resolves alike).
  const list = await client.execute('PRAGMA database_list');
  const file = String(list.rows.find((r) => r.name === 'main')?.file ?? '');
  if (!file) return null; // in-memory: another connection would be another database
  const connection = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  return {
    connection,
    credential: connection.prepare<[string]>(CREDENTIAL_SQL),
    version: connection.prepare<[string]>(VERSION_SQL),
    epoch: connection.prepare<[]>(EPOCH_SQL).raw(true),
    credentials: new Map(),
  };
}

function statementsFor(database: DbOrTx): Promise<Statements | null> {
  const client = localClient(database);
  if (!client) return Promise.resolve(null);
  let entry = opened.get(database);
  if (!entry) {
    entry = open(client).then(
      (statements) => {
        if (statements) ready.set(database, statements);
        return statements;
      },
      () => null,
    );
    opened.set(database, entry);
  }
  return entry;
}

/** Runs one prepared read; on any failure drops the connection (a fresh one next time) and answers undefined. */
async function run<T>(database: DbOrTx, read: (s: Statements) => T): Promise<T | undefined> {
  const statements = ready.get(database) ?? (await statementsFor(database));
  return statements ? attempt(database, statements, read) : undefined;
}

function attempt<T>(database: DbOrTx, statements: Statements, read: (s: Statements) => T): T | undefined {
  try {
    return read(statements);
  } catch {
    opened.delete(database);
    ready.delete(database);
    try {
      statements.connection.close();
    } catch {
      // already unusable
    }
    return undefined;
  }
}

/**
 * The credential with this hash and its Site, read at once when the statements are open
 * (no promise: this runs on every request); undefined when they are not (use
 * preparedCredential) or this database has none.
 */
export function preparedCredentialNow(database: DbOrTx, tokenHash: string): CredentialRow | null | undefined {
  const statements = ready.get(database);
  return statements ? attempt(database, statements, (s) => credentialRow(s, tokenHash)) : undefined;
}

/** The credential with this hash and its Site; null if none; undefined if this database has no prepared reads. */
export function preparedCredential(database: DbOrTx, tokenHash: string): Promise<CredentialRow | null | undefined> {
  return run(database, (s) => credentialRow(s, tokenHash));
}

/**
 * The row as the database has it now. Triggers bump the auth epoch (one row, table
 * auth_epoch) on every change to a credential or a Site, whoever makes it — a write of this
 * process, another instance, a person with sqlite3 — so while the epoch is unchanged the row
 * read last time is the row now: the same answer as reading it again, for one tiny read
 * instead of a two-table join. Unlike `PRAGMA data_version`, which this used before, the
 * epoch does not move when anything else commits: under checkouts and signups (a commit
 * each) the join ran again on every request (~70–150 µs of the ~190 µs a checkout spent
 * authenticating, measured under load). Should the row be gone (deleted by hand), the
 * credential is read afresh every time; without the table (a database not migrated yet)
 * these statements do not prepare and requests take the ordinary query.
 */
function credentialRow(s: Statements, tokenHash: string): CredentialRow | null {
  const at = (s.epoch.get() as [number] | undefined)?.[0];
  const known = at === undefined ? undefined : s.credentials.get(tokenHash);
  if (known && known.at === at) return known.row;
  const row = (s.credential.get(tokenHash) as CredentialRow | undefined) ?? null;
  if (at === undefined) return row;
  if (s.credentials.size >= MAX_REMEMBERED_CREDENTIALS) s.credentials.clear();
  s.credentials.set(tokenHash, { row, at });
  return row;
}

/** The Site's catalog version; null if no such Site; undefined if this database has no prepared reads. */
export function preparedCatalogVersion(database: DbOrTx, siteId: string): Promise<number | null | undefined> {
  return run(database, (s) => (s.version.get(siteId) as { v: number } | undefined)?.v ?? null);
}
