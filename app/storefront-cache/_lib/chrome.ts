import 'server-only';
import type { Site } from '@/lib/contract/catalog';
import { fetchSite, fetchStorefront } from '@/lib/site-client';

/**
 * The Site and the navigation of a cached page, read once per catalog key instead of once
 * per page: under a key (`siteId.version`, market, locale) they can no more change than the
 * cached pages themselves, so every product page of the key renders with the same header,
 * and a miss costs the product read alone. A new catalog version is a new key; the oldest
 * keys fall out (a handful live at a time: one version, a few markets and languages).
 * A failed read is forgotten at once, so the next page asks again.
 */
const KEYS = 32;
const reads = new Map<string, Promise<unknown>>();

function once<T>(key: string, read: () => Promise<T>): Promise<T> {
  const known = reads.get(key) as Promise<T> | undefined;
  if (known) {
    reads.delete(key);
    reads.set(key, known);
    return known;
  }
  const fresh = read();
  reads.set(key, fresh);
  fresh.catch(() => reads.delete(key));
  if (reads.size > KEYS) reads.delete(reads.keys().next().value!);
  return fresh;
}

export function siteFor(catalog: string): Promise<Site> {
  return once(`site|${catalog}`, () => fetchSite());
}

/** The snapshot's navigation and market names (the header's and footer's) for the key. */
export function snapshotFor(catalog: string, market: string, locale: string) {
  return once(`snapshot|${catalog}|${market}|${locale}`, async () => {
    const { navigation, markets } = await fetchStorefront({ market, locale });
    return { navigation, markets };
  });
}
