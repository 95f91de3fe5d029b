import 'server-only';
import { createHash } from 'node:crypto';
import { clientConfig } from './config';
import { processSlot } from '@/lib/process-state';

/**
 * The reads of /site/v1 one render made: path and query (below /site/v1) → the answer's
 * ETag; `status:404` for a 404 (a bundle item no longer published); for a read of which
 * the page shows only some fields, `part:<fields>:<digest>` (partTag); or, for an answer that
 * names what it shows (its Cache-Tag header), `scopes:<tags>` (scopesTag): the page store
 * checks those against the catalog's changes without asking again. A page that is a
 * function of its reads (a cached product page: docs/storefront.md) is the same page for as
 * long as every read answers the same.
 */
export type ReadLog = Map<string, string>;

/**
 * A read that cannot be checked again: a 200 without an ETag, a refusal or failure (it may
 * pass), or two answers to one path.
 */
export const UNCHECKABLE = 'uncheckable';

type LogSource = () => ReadLog | null;
const holder = processSlot<{ source?: LogSource }>('siteClientReadLog', () => ({}));

/** How the client finds the log of the render it runs in; a front end sets it once. */
export function logReadsWith(source: LogSource): void {
  holder.source = source;
}

const SCOPES = 'scopes:';

/** The log's tag of an answer that names what it shows (its Cache-Tag header). */
export function scopesTag(cacheTag: string): string {
  return `${SCOPES}${cacheTag}`;
}

/** The catalog scopes a read's tag names, or null for a tag of another kind. */
export function scopesOfTag(tag: string): string[] | null {
  return tag.startsWith(SCOPES) ? tag.slice(SCOPES.length).split(',').filter(Boolean) : null;
}

/** Notes a read in the current render's log, if there is one. */
export function noteRead(path: string, tag: string): void {
  const log = holder.source?.();
  if (!log) return;
  const known = log.get(path);
  log.set(path, known === undefined || known === tag ? tag : UNCHECKABLE);
}

/** A log as it is kept with a page (sorted JSON), or null when some read cannot be checked again. */
export function serialiseReads(log: ReadLog): string | null {
  if (log.size === 0 || [...log.values()].includes(UNCHECKABLE)) return null;
  return JSON.stringify(Object.fromEntries([...log].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

/**
 * The tag of a read of which only these top-level fields are used: the storefront snapshot's
 * navigation, say, whose `version` and featured products change with things the page does
 * not show. Of the answer as sent (its links as the API wrote them), keys sorted.
 */
export function partTag(answer: unknown, fields: string[]): string {
  const picked = Object.fromEntries(fields.map((f) => [f, (answer as Record<string, unknown> | null)?.[f] ?? null]));
  return `part:${fields.join(',')}:${createHash('sha256').update(canonicalJson(picked)).digest('base64url')}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const PART = /^part:([A-Za-z]+(?:,[A-Za-z]+)*):[A-Za-z0-9_-]+$/;
const TIMEOUT_MS = 10_000;

/**
 * Checks already made, by scope (the Site and catalog version they were made at), path and
 * tag: under one catalog version a read answers one way, and the reads many pages share
 * (the Site, the navigation, a collection's list) are then asked once, not once per page.
 */
const CHECKS = 4096;
const checked = new Map<string, boolean>();

/** A kept read log's entries (path → tag), or null when the text is not one. */
export function readLogEntries(kept: string): [string, unknown][] | null {
  try {
    const parsed: unknown = JSON.parse(kept);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? Object.entries(parsed) : null;
  } catch {
    return null;
  }
}

/**
 * Whether every read of a kept log (serialiseReads) answers as it did: a conditional GET per
 * read (If-None-Match: its ETag, answered 304 while the answer is the same), still a 404, or
 * the same digest of the fields used. Any doubt — a changed answer, a refusal, no answer, a
 * log that is not one — is a no: the page is then rendered anew. `scope` names the Site and
 * catalog version the answers are wanted for, so that checks can be shared (see CHECKS).
 */
export async function readsUnchanged(kept: string, scope?: string): Promise<boolean> {
  const { baseUrl, credential, nearby } = clientConfig();
  const entries = readLogEntries(kept);
  if (!credential || !entries || entries.length === 0) return false;
  const same = await Promise.all(
    entries.map(async ([path, tag]) => {
      if (typeof tag !== 'string' || tag === UNCHECKABLE || !path.startsWith('/')) return false;
      const memo = scope === undefined ? null : `${scope}\n${path}\n${tag}`;
      const known = memo === null ? undefined : checked.get(memo);
      if (known !== undefined) return known;
      const same = await answersAsBefore(path, tag, baseUrl, credential, nearby);
      // Only an answer is kept: a refusal or a failure may pass.
      if (memo !== null && same !== null) {
        checked.set(memo, same);
        if (checked.size > CHECKS) checked.delete(checked.keys().next().value!);
      }
      return same === true;
    }),
  );
  return same.every(Boolean);
}

/** Whether the read answers as the tag says, or null when it got no answer to tell by. */
async function answersAsBefore(path: string, tag: string, baseUrl: string, credential: string, nearby: boolean): Promise<boolean | null> {
  const part = PART.exec(tag);
  const etag = tag === 'status:404' || part ? null : tag;
  const headers: Record<string, string> = { Authorization: `Bearer ${credential}`, Accept: 'application/json' };
  if (nearby) headers['Accept-Encoding'] = 'identity';
  if (etag) headers['If-None-Match'] = etag;
  try {
    const response = await fetch(`${baseUrl}${path}`, { headers, cache: 'no-store', signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (part && response.status === 200) return partTag(JSON.parse(await response.text()), part[1]!.split(',')) === tag;
    await response.arrayBuffer();
    if (response.status === 429 || response.status >= 500) return null;
    return etag ? response.status === 304 : response.status === 404;
  } catch {
    return null;
  }
}
