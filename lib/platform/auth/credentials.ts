import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { credentials, sites } from '@/db/schema';
import type { DbOrTx } from '@/db/client';
import { prepared } from '@/db/prepared';
import { read, readTogether, type PreparedRead } from '@/db';
import { preparedCredential, preparedCredentialNow } from '@/lib/platform/auth/prepared-reads';
import type { Scope } from '@/lib/contract/operation';
import { DomainError } from '@/lib/platform/errors';
import { newId } from '@/lib/platform/ids';
import { noteCatalogVersion } from '@/lib/platform/cache/seen-versions';

export type { Scope };

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const CREDENTIAL_PATTERN = /^site_(core|extended)_[0-9A-Za-z]{32,128}$/;

/** 40 base62 characters from the CSPRNG, with rejection sampling so every character is uniform. */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function hashCredential(token: string): string {
  // one-shot: no Hash object per request (every request hashes the credential it presents)
  return hash('sha256', token, 'hex');
}

/** The Site fields a request carries with its credential: one list, read by every lookup. */
const SITE_FIELDS = [
  'id',
  'handle',
  'name',
  'defaultMarketId',
  'defaultLocale',
  'checkoutBaseUrl',
  'catalogVersion',
  'stockVersion',
] as const;
type SiteFields = Pick<typeof sites.$inferSelect, (typeof SITE_FIELDS)[number]>;

/** The Site and scope a request acts for. */
export type SiteContext = { credentialId: string; scope: Scope; site: SiteFields };

/** What a credential lookup reads: the context, and what decides whether it is live. */
export type CredentialFields = SiteContext & { tokenHash: string; revokedAt: number | null };

/** Makes a credential; the token is returned once and only its hash is kept. */
export async function createCredential(
  database: DbOrTx,
  input: { siteHandle: string; scope: Scope; label?: string },
): Promise<{ id: string; token: string; siteId: string }> {
  const [site] = await database.select({ id: sites.id }).from(sites).where(eq(sites.handle, input.siteHandle));
  if (!site) throw new DomainError('not_found', `No Site with handle "${input.siteHandle}".`);
  const token = `site_${input.scope}_${randomBase62(40)}`;
  const id = newId('cred');
  await database.insert(credentials).values({
    id,
    siteId: site.id,
    scope: input.scope,
    tokenHash: hashCredential(token),
    displayPrefix: token.slice(0, input.scope.length + 9),
    label: input.label ?? null,
    createdAt: Date.now(),
  });
  return { id, token, siteId: site.id };
}

/** Revokes by credential id or by the credential itself. Returns whether one was revoked. */
export async function revokeCredential(database: DbOrTx, credentialOrId: string): Promise<boolean> {
  const match = CREDENTIAL_PATTERN.test(credentialOrId)
    ? eq(credentials.tokenHash, hashCredential(credentialOrId))
    : eq(credentials.id, credentialOrId);
  const revoked = await database
    .update(credentials)
    .set({ revokedAt: Date.now() })
    .where(and(match, isNull(credentials.revokedAt)))
    .returning({ id: credentials.id });
  return revoked.length > 0;
}

/** Is this credential live (known and not revoked)? */
export async function isLiveCredential(database: DbOrTx, token: string): Promise<boolean> {
  return (await authenticateCredential(database, token)) !== null;
}

const lookupFields = {
  credentialId: credentials.id,
  scope: credentials.scope,
  tokenHash: credentials.tokenHash,
  revokedAt: credentials.revokedAt,
  site: Object.fromEntries(SITE_FIELDS.map((field) => [field, sites[field]])) as { [K in (typeof SITE_FIELDS)[number]]: (typeof sites)[K] },
};

function lookupQuery(database: DbOrTx) {
  return database
    .select(lookupFields)
    .from(credentials)
    .innerJoin(sites, eq(sites.id, credentials.siteId))
    .where(eq(credentials.tokenHash, sql.placeholder('hash')))
    .prepare();
}

// Every request runs this lookup: prepared once on a local file (lib/platform/auth/prepared-reads.ts),
// else its SQL built once per database (db/prepared.ts), not once per request.
async function findCredential(database: DbOrTx, tokenHash: string) {
  const now = preparedCredentialNow(database, tokenHash);
  const fast = now !== undefined ? now : await preparedCredential(database, tokenHash);
  if (fast !== undefined) {
    if (!fast) return null;
    const { siteId, handle, name, defaultMarketId, defaultLocale, checkoutBaseUrl, catalogVersion, stockVersion, ...credential } = fast;
    return {
      ...credential,
      site: { id: siteId, handle, name, defaultMarketId, defaultLocale, checkoutBaseUrl, catalogVersion, stockVersion },
    };
  }
  return (await prepared(database, 'credentials.lookup', lookupQuery).all({ hash: tokenHash }))[0] ?? null;
}

/**
 * Looks a presented credential up by its hash and compares the hashes in constant
 * time. Answers null for anything unknown, malformed or revoked. The same read gives
 * the Site's current catalog version, which the catalog caches key on; so it is never
 * cached itself (a revocation or a catalog change counts from the next request, on
 * every instance).
 */
export async function authenticateCredential(database: DbOrTx, token: string): Promise<SiteContext | null> {
  if (!CREDENTIAL_PATTERN.test(token)) return null;
  const presented = hashCredential(token);
  return liveContext(await findCredential(database, presented), presented);
}

/**
 * authenticateCredential and another read that does not wait for its answer, sent together
 * as one read batch: one snapshot, and over a network one request where they were two.
 * Always the ordinary query (no prepared read of a local file): for a caller that asks
 * over a network.
 */
export async function authenticateAlong<T>(database: DbOrTx, token: string, other: PreparedRead<T>): Promise<[SiteContext | null, T[]]> {
  if (!CREDENTIAL_PATTERN.test(token)) return [null, []];
  const presented = hashCredential(token);
  const [found, rows] = await readTogether(database, [
    read(prepared(database, 'credentials.lookup', lookupQuery), { hash: presented }),
    other,
  ] as const);
  return [liveContext(found[0] ?? null, presented), rows];
}

/** The context of a credential row as read, if it is the one presented and not revoked. */
function liveContext(row: Awaited<ReturnType<typeof findCredential>>, presented: string): SiteContext | null {
  if (!row || row.revokedAt !== null) return null;
  const a = Buffer.from(row.tokenHash, 'hex');
  const b = Buffer.from(presented, 'hex');
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  noteCatalogVersion(row.site.id, row.site.catalogVersion);
  // The scope is also in the token; the stored one is authoritative.
  return { credentialId: row.credentialId, scope: row.scope, site: row.site };
}

export async function listCredentials(database: DbOrTx, siteHandle?: string) {
  const q = database
    .select({
      id: credentials.id,
      site: sites.handle,
      scope: credentials.scope,
      prefix: credentials.displayPrefix,
      createdAt: credentials.createdAt,
      revokedAt: credentials.revokedAt,
    })
    .from(credentials)
    .innerJoin(sites, eq(sites.id, credentials.siteId));
  return siteHandle ? q.where(or(eq(sites.handle, siteHandle))) : q;
}
