import { and, eq, gt } from 'drizzle-orm';
import { baseDatabase, schema, type Database, type DbOrTx } from '@/db/client';
import type { Statement } from '@/db';
import type { AnswerAddress } from './stored-answers';
import { processSlot } from '@/lib/process-state';

/**
 * What each Site's catalog changes touched, as this process knows it: scope (`product:<handle>`,
 * `collection:<handle>`, `site`) → the catalog version of its latest change, from table
 * catalog_changes, which the triggers that move sites.catalog_version fill
 * (db/migrations/0026_catalog_change_scopes.sql).
 *
 * An answer read at catalog version V that names its scopes is still the answer while none of
 * them changed after V: a price change to one product leaves every other product's answer
 * kept. Across instances this holds as the catalog version does: every request reads the
 * Site's version with its credential, and an instance that sees it move reads what changed
 * since it last looked (one indexed read, only then) before it trusts anything it keeps.
 */
type Known = { synced: number; versions: Map<string, number>; catchingUp: Promise<void> | null };

const bySite = processSlot('catalogChanges', () => new WeakMap<object, Map<string, Known>>());

function knownFor(database: DbOrTx, siteId: string): Known {
  const base = baseDatabase(database);
  let sites = bySite.get(base);
  if (!sites) bySite.set(base, (sites = new Map()));
  let known = sites.get(siteId);
  if (!known) sites.set(siteId, (known = { synced: -1, versions: new Map(), catchingUp: null }));
  return known;
}

/**
 * Brings what this process knows of the Site's changes up to at least `site.catalogVersion`
 * (a version read before this call). Null when it already is, so a hit costs no promise.
 */
export function catchUp(database: DbOrTx, site: { id: string; catalogVersion: number }): Promise<void> | null {
  const known = knownFor(database, site.id);
  if (known.synced >= site.catalogVersion) return null;
  return (async () => {
    while (known.synced < site.catalogVersion) {
      known.catchingUp ??= readChanges(database, site, known).finally(() => (known.catchingUp = null));
      await known.catchingUp;
    }
  })();
}

async function readChanges(database: DbOrTx, site: { id: string; catalogVersion: number }, known: Known): Promise<void> {
  const t = schema.catalogChanges;
  const target = site.catalogVersion;
  const rows = await baseDatabase(database)
    .select({ scope: t.scope, version: t.version })
    .from(t)
    .where(and(eq(t.siteId, site.id), gt(t.version, known.synced)));
  let newest = target;
  for (const { scope, version } of rows) {
    known.versions.set(scope, Math.max(version, known.versions.get(scope) ?? 0));
    newest = Math.max(newest, version);
  }
  // Every change up to `target` had committed before its version was read, and a later one
  // gets a higher version: nothing at or below `newest` can still appear.
  known.synced = Math.max(known.synced, newest);
}

/**
 * Whether none of `scopes`, nor the Site as a whole, changed after `validAt`. Only after
 * catchUp for a version at least `validAt`: what this process has not read yet it cannot tell.
 */
export function unchangedSince(database: DbOrTx, siteId: string, scopes: readonly string[], validAt: number): boolean {
  const known = knownFor(database, siteId);
  if (known.synced < validAt) return false;
  if ((known.versions.get('site') ?? 0) > validAt) return false;
  for (const scope of scopes) if ((known.versions.get(scope) ?? 0) > validAt) return false;
  return true;
}

/** What an entry kept under per-scope freshness carries beside its value. */
export type Scoped = { readonly validAt: number; readonly scopes: readonly string[] };

/** How a request judges entries kept per scope: what it would keep a new one at, and whether a kept one holds. */
export type Freshness = { readonly validAt: number; holds(kept: Partial<Scoped>): boolean };

/**
 * Where a read's answer is kept (lib/api/reply.ts, okKept): by `key` alone (the key carries
 * the catalog version), or, with `fresh`, per scope: kept across catalog changes for as long
 * as none of the scopes `scopesOf` names in the answer changed. With `shared`, also in the
 * database at that address (with the origin), for every instance (stored-answers.ts).
 */
export type KeptRead = {
  key: string;
  fresh?: Freshness;
  scopesOf?: (body: never) => readonly string[];
  shared?: {
    database: Database;
    address: Omit<AnswerAddress, 'origin'>;
    /** The answer's own read as a statement, sent with the stored answer's over a network (one request). */
    alongside?: () => { statement: Statement; body: (row: ArrayLike<unknown> | undefined) => Promise<unknown> };
  };
};

/** The request's Freshness for the Site at the version its credential read saw (after catchUp). */
export async function freshnessFor(database: DbOrTx, site: { id: string; catalogVersion: number }): Promise<Freshness> {
  const waiting = catchUp(database, site);
  if (waiting) await waiting;
  return {
    validAt: site.catalogVersion,
    holds: (kept) =>
      kept.validAt !== undefined && kept.scopes !== undefined && unchangedSince(database, site.id, kept.scopes, kept.validAt),
  };
}
