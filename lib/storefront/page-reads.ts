import { serialiseReads, type ReadLog } from '@/lib/site-client';
import type { PageKey } from './routing';
import { processSlot } from '@/lib/process-state';

/**
 * The read logs of cached product pages being rendered, until the page cache hands the page
 * over to be kept (lib/storefront/kept-pages.ts): the render and the page cache are
 * separate bundles of this process, so the logs live in a global slot. A render that is
 * never kept (a 404, an error) leaves its log behind; the oldest go past LOGS.
 */
const LOGS = 256;
const pending = processSlot('pageReadLogs', () => new Map<string, ReadLog[]>());

export function pageReadsId(key: Pick<PageKey, 'origin' | 'market' | 'locale'>, catalog: string, handle: string): string {
  return JSON.stringify([key.origin, key.market, key.locale, catalog, handle]);
}

/** The page being rendered logs its reads in `log`. */
export function renderingWith(id: string, log: ReadLog): void {
  const logs = pending.get(id) ?? [];
  if (logs.includes(log)) return;
  logs.push(log);
  pending.delete(id);
  pending.set(id, logs);
  if (pending.size > LOGS) pending.delete(pending.keys().next().value!);
}

/**
 * The reads of the page just rendered, as kept with it, or null: none known, or two renders
 * of the same page at once (which log is whose cannot be told; rare, and only costs a render
 * after the next catalog change).
 */
export function readsOfRendered(id: string): string | null {
  const logs = pending.get(id);
  pending.delete(id);
  return logs?.length === 1 ? serialiseReads(logs[0]!) : null;
}
