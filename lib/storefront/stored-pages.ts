import { gunzipSync, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { and, eq, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { deleteInSteps, execute, overNetwork, prepared, read, rows, schema, syncReads, type Database } from '@/db';
import { authenticateAlong, type SiteContext } from '@/lib/platform/auth/credentials';
import { STORED_BUILD } from '@/lib/platform/cache/stored-answers';

/**
 * Rendered product pages kept in the database (table stored_pages), gzipped: shared by every
 * instance, kept across restarts, and as many as the catalog has, where Next's page cache
 * holds a few hundred in one process's memory. A page is kept under its address (Site,
 * origin, market, locale, handle) and the build that rendered it (during a deploy two builds
 * serve the same addresses), and answers for the catalog version it was rendered at: the
 * Site's catalog version moves with every catalog change (database triggers). A page of an
 * older version is still served while nothing it shows changed since
 * (lib/storefront/kept-pages.ts, keptPage). See docs/storefront.md.
 */
export type PageAddress = { siteId: string; origin: string; market: string; locale: string; handle: string };
export type StoredPage = { gzipped: Buffer; policy: string; catalogVersion: number; reads: string | null };

/** What the stored HTML is valid for besides the catalog: this build's asset names. */
export const PAGE_BUILD = STORED_BUILD;

const FIND_SQL = `SELECT html, policy, catalog_version, reads FROM stored_pages WHERE site_id = ? AND origin = ? AND market = ?
  AND locale = ? AND handle = ? AND build = ?`;
const reads = syncReads({ page: { sql: FIND_SQL, raw: true } });

const gzipAsync = promisify(gzip);

/**
 * The page kept at this address for this build, of whichever catalog version, if any: read
 * at once on a local file (a prepared statement, no promise), else by an ordinary query.
 */
export async function storedPage(database: Database, address: PageAddress): Promise<StoredPage | null> {
  const args = [address.siteId, address.origin, address.market, address.locale, address.handle, PAGE_BUILD];
  // null: no page kept; undefined: this database has no prepared reads, so ask it plainly.
  const row = await reads.run(
    database,
    (reader) => (reader.get('page', ...args) as [Uint8Array, string, number, string | null] | undefined) ?? null,
  );
  if (row === null) return null;
  if (row !== undefined) {
    const [html, policy, catalogVersion, pageReads] = row;
    return {
      gzipped: Buffer.from(html.buffer, html.byteOffset, html.byteLength),
      policy,
      catalogVersion: Number(catalogVersion),
      reads: pageReads,
    };
  }
  const found = await execute(database, { sql: FIND_SQL, args });
  const first = found.rows[0];
  if (!first) return null;
  return {
    gzipped: Buffer.from(first.html as ArrayBuffer),
    policy: String(first.policy),
    catalogVersion: Number(first.catalog_version),
    reads: first.reads === null ? null : String(first.reads),
  };
}

/**
 * The credential's Site (authenticateCredential) and the page kept at `address`, read
 * together: over a network one request where they were two. The address names the Site the
 * caller expects the credential to be of; the page answers only for that Site. Undefined on
 * a local file, where each is read at once on its own (prepared): read them apart there.
 */
export async function credentialAndPage(
  database: Database,
  token: string,
  address: PageAddress,
): Promise<{ context: SiteContext | null; page: StoredPage | null } | undefined> {
  if (!overNetwork(database)) return undefined;
  const t = schema.storedPages;
  const at = (column: SQLiteColumn, name: string) => eq(column, sql.placeholder(name));
  const query = prepared(database, 'stored-pages.find', (d) =>
    d
      .select({ html: t.html, policy: t.policy, catalogVersion: t.catalogVersion, reads: t.reads })
      .from(t)
      .where(
        and(
          at(t.siteId, 'siteId'),
          at(t.origin, 'origin'),
          at(t.market, 'market'),
          at(t.locale, 'locale'),
          at(t.handle, 'handle'),
          at(t.build, 'build'),
        ),
      )
      .prepare(),
  );
  const [context, found] = await authenticateAlong(database, token, read(query, { ...address, build: PAGE_BUILD }));
  const first = found[0];
  const page = first
    ? { gzipped: Buffer.from(first.html), policy: first.policy, catalogVersion: Number(first.catalogVersion), reads: first.reads }
    : null;
  return { context, page };
}

/** Keeps a page just rendered, replacing what the address held for this build. */
export async function storePage(
  database: Database,
  address: PageAddress,
  catalogVersion: number,
  html: string,
  policy: string,
  pageReads: string | null = null,
): Promise<void> {
  // Level 4: a quarter of level 9's CPU (every render pays it) for ~4% more bytes.
  const gzipped = await gzipAsync(html, { level: 4 });
  const page = { build: PAGE_BUILD, catalogVersion, html: gzipped, policy, reads: pageReads, storedAt: Date.now() };
  const t = schema.storedPages;
  await database
    .insert(t)
    .values({ ...address, ...page })
    .onConflictDoUpdate({ target: [t.siteId, t.origin, t.market, t.locale, t.handle, t.build], set: page });
}

/** The page's HTML for a client that does not take gzip. */
export function plainHtml(page: StoredPage): Buffer {
  return gunzipSync(page.gzipped);
}

/**
 * Handles of published products after `after`, in handle order, whose page at this address
 * for this build is missing or older than the latest change to its product or to the whole
 * Site (table catalog_changes): at most `limit`, what rendering ahead still has to do. After a
 * price change to one product that is its page alone.
 */
export async function handlesToRender(
  database: Database,
  at: Omit<PageAddress, 'handle'>,
  after: string,
  limit: number,
): Promise<string[]> {
  const found = await rows<{ handle: string }>(
    database,
    `SELECT p.handle FROM products p
      WHERE p.site_id = ? AND p.status = 'published' AND p.handle > ? AND NOT EXISTS (
        SELECT 1 FROM stored_pages s WHERE s.site_id = p.site_id AND s.origin = ? AND s.market = ? AND s.locale = ?
          AND s.handle = p.handle AND s.build = ?
          AND s.catalog_version >= coalesce((SELECT max(c.version) FROM catalog_changes c
            WHERE c.site_id = p.site_id AND c.scope IN ('product:' || p.handle, 'site')), 0))
      ORDER BY p.handle LIMIT ?`,
    [at.siteId, after, at.origin, at.market, at.locale, PAGE_BUILD, limit],
  );
  return found.map((r) => String(r.handle));
}

/** The addresses (without handle) the Site's kept pages were asked at, most pages first, at most `limit`. */
export async function storedAddresses(database: Database, siteId: string, limit: number): Promise<Omit<PageAddress, 'handle'>[]> {
  const found = await rows<{ origin: string; market: string; locale: string }>(
    database,
    `SELECT origin, market, locale FROM stored_pages WHERE site_id = ? GROUP BY origin, market, locale ORDER BY COUNT(*) DESC LIMIT ?`,
    [siteId, limit],
  );
  return found.map((r) => ({ siteId, origin: String(r.origin), market: String(r.market), locale: String(r.locale) }));
}

/**
 * Removes the Site's pages that can never be served again: of a product no longer
 * published, or of another build stored more than `graceMs` ago (during a deploy, instances
 * of the previous build may still serve theirs). Pages of an older catalog version stay
 * until their address is rendered again: they say which addresses shoppers ask for.
 * A step at a time (deleteInSteps), so no write holds the lock or the process for long.
 * Answers how many went.
 */
export async function dropDeadPages(database: Database, siteId: string, graceMs: number): Promise<number> {
  const { deleted } = await deleteInSteps(
    database,
    'stored_pages',
    `site_id = ? AND ((build <> ? AND stored_at < ?)
      OR NOT EXISTS (SELECT 1 FROM products p WHERE p.site_id = stored_pages.site_id AND p.handle = stored_pages.handle AND p.status = 'published'))`,
    [siteId, PAGE_BUILD, Date.now() - graceMs],
  );
  return deleted;
}
