import { syncReads, type DbOrTx, type SyncReader } from '@/db';
import type { CredentialFields } from './credentials';

/**
 * The reads every request makes — the presented credential with its Site (and the
 * Site's catalog version, which the catalog caches key on), and the version alone — as
 * statements prepared once, on a read connection of their own to the same local file.
 *
 * Why: the libSQL client prepares (compiles) every statement again on every call; for
 * the credential join that is most of its cost, on every request. The answers are the same fresh, committed rows:
 * nothing here is cached but the compiled statements.
 *
 * Only for a local database file opened by the app (`file:` URL); a transaction, an
 * in-memory database or a remote libSQL server keeps the ordinary query (callers fall
 * back when this answers null).
 */
export type CredentialRow = Omit<CredentialFields, 'site'> & { siteId: string } & Omit<CredentialFields['site'], 'id'>;

/** Credentials remembered per connection (a process serves a handful; past this it starts again). */
const MAX_REMEMBERED_CREDENTIALS = 1024;

const CREDENTIAL_SQL = `SELECT c.id AS credentialId, c.scope AS scope, c.token_hash AS tokenHash, c.revoked_at AS revokedAt,
  s.id AS siteId, s.handle AS handle, s.name AS name, s.default_market_id AS defaultMarketId,
  s.default_locale AS defaultLocale, s.checkout_base_url AS checkoutBaseUrl, s.catalog_version AS catalogVersion,
  s.stock_version AS stockVersion
  FROM credentials c INNER JOIN sites s ON s.id = c.site_id WHERE c.token_hash = ?`;
const VERSION_SQL = 'SELECT catalog_version AS v FROM sites WHERE id = ?';
const EPOCH_SQL = 'SELECT n FROM auth_epoch WHERE id = 1';
const reads = syncReads({
  credential: { sql: CREDENTIAL_SQL },
  version: { sql: VERSION_SQL },
  epoch: { sql: EPOCH_SQL, raw: true },
});
type Reader = SyncReader<'credential' | 'version' | 'epoch'>;

/** Credential rows each connection read, with the auth epoch they were read at. */
const remembered = new WeakMap<Reader, Map<string, { row: CredentialRow | null; at: number }>>();

/**
 * The credential with this hash and its Site, read at once when the statements are open
 * (no promise: this runs on every request); undefined when they are not (use
 * preparedCredential) or this database has none.
 */
export function preparedCredentialNow(database: DbOrTx, tokenHash: string): CredentialRow | null | undefined {
  return reads.now(database, (reader) => credentialRow(reader, tokenHash));
}

/** The credential with this hash and its Site; null if none; undefined if this database has no prepared reads. */
export function preparedCredential(database: DbOrTx, tokenHash: string): Promise<CredentialRow | null | undefined> {
  return reads.run(database, (reader) => credentialRow(reader, tokenHash));
}

/**
 * The row as the database has it now. Triggers bump the auth epoch (one row, table
 * auth_epoch) on every change to a credential or a Site, whoever makes it — a write of this
 * process, another instance, a person with sqlite3 — so while the epoch is unchanged the row
 * read last time is the row now: the same answer as reading it again, for one tiny read
 * instead of a two-table join. Unlike `PRAGMA data_version`, the epoch does not move when
 * anything else commits, so checkouts and signups (a commit each) do not make every
 * request read the join again. Should the row be gone (deleted by hand), the
 * credential is read afresh every time; without the table (a database not migrated yet)
 * these statements do not prepare and requests take the ordinary query.
 */
function credentialRow(reader: Reader, tokenHash: string): CredentialRow | null {
  const at = (reader.get('epoch') as [number] | undefined)?.[0];
  let known = remembered.get(reader);
  if (!known) remembered.set(reader, (known = new Map()));
  const hit = at === undefined ? undefined : known.get(tokenHash);
  if (hit && hit.at === at) return hit.row;
  const row = (reader.get('credential', tokenHash) as CredentialRow | undefined) ?? null;
  if (at === undefined) return row;
  if (known.size >= MAX_REMEMBERED_CREDENTIALS) known.clear();
  known.set(tokenHash, { row, at });
  return row;
}

/** The Site's catalog version; null if no such Site; undefined if this database has no prepared reads. */
export function preparedCatalogVersion(database: DbOrTx, siteId: string): Promise<number | null | undefined> {
  return reads.run(database, (reader) => (reader.get('version', siteId) as { v: number } | undefined)?.v ?? null);
}
