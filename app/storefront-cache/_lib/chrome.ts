import 'server-only';
import type { Site } from '@/lib/contract/catalog';
import { call, noteRead } from '@/lib/site-client';
import { getSite, getStorefront } from '@/lib/contract/operations/reads';

/**
 * The Site and the navigation of a cached page, read once per catalog key instead of once
 * per page: under a key (`siteId.version`, market, locale) they can no more change than the
 * cached pages themselves, so every product page of the key renders with the same header,
 * and a miss costs the product read alone. A new catalog version is a new key; the oldest
 * keys fall out (a handful live at a time: one version, a few markets and languages).
 * A failed read is forgotten at once, so the next page asks again. Each page that uses a
 * read logs it as its own (./reads.ts), whichever render made it.
 */
const KEYS = 32;
type Read<T> = { data: T; path: string; tag: string };
const reads = new Map<string, Promise<Read<unknown>>>();

async function once<T>(key: string, read: () => Promise<Read<T>>): Promise<T> {
  let known = reads.get(key) as Promise<Read<T>> | undefined;
  if (known) {
    reads.delete(key);
    reads.set(key, known);
  } else {
    known = read();
    reads.set(key, known);
    known.catch(() => reads.delete(key));
    if (reads.size > KEYS) reads.delete(reads.keys().next().value!);
  }
  const { data, path, tag } = await known;
  noteRead(path, tag);
  return data;
}

export function siteFor(catalog: string): Promise<Site> {
  return once(`site|${catalog}`, async () => {
    const { data, path, readTag } = await call(getSite, { query: {} });
    return { data, path, tag: readTag };
  });
}

/**
 * The snapshot's navigation and market names (the header's and footer's) for the key. Only
 * they are logged as read: its version and featured products change with every catalog
 * change, and the page shows neither.
 */
export function snapshotFor(catalog: string, market: string, locale: string) {
  return once(`snapshot|${catalog}|${market}|${locale}`, async () => {
    const { data, path, readTag } = await call(getStorefront, { query: { market, locale }, logFields: ['navigation', 'markets'] });
    return { data: { navigation: data.navigation, markets: data.markets }, path, tag: readTag };
  });
}
