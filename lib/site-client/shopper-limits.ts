import 'server-only';
import { processSlot } from '@/lib/process-state';

/**
 * Shoppers the API has just refused for their own budget (429 `rate_limited` under a
 * `shopper-…` policy, on a call that named them), until the API said they may try again.
 *
 * The proxy asks before a shop page renders: such a shopper's next pages are answered 429
 * with Retry-After at once, as the API answered, instead of being rendered only to fail —
 * a render (~20 ms of CPU), a log line and a misleading "could not load" page each. Other
 * shoppers, and the health of the API, are not touched: the API answers; one shopper is
 * over budget. Per process and only a hint: another instance finds out from the API itself
 * on its first page. Process-wide (lib/process-state: the proxy and the pages are separate bundles),
 * bounded, oldest out first.
 */
const MAX_SHOPPERS = 10_000;
/** The API's windows are at most an hour; a Retry-After beyond that is not believed. */
const MAX_WAIT_SECONDS = 3600;

function limited(): Map<string, number> {
  return processSlot('limitedShoppers', () => new Map<string, number>());
}

export function noteShopperLimited(shopper: string, retryAfterSeconds: number, now = Date.now()): void {
  const seconds = Number.isFinite(retryAfterSeconds) ? Math.min(Math.max(Math.ceil(retryAfterSeconds), 1), MAX_WAIT_SECONDS) : 1;
  const map = limited();
  map.delete(shopper);
  if (map.size >= MAX_SHOPPERS) map.delete(map.keys().next().value!);
  map.set(shopper, now + seconds * 1000);
}

/** Whole seconds until the shopper may try again, or null when nothing is known against them. */
export function shopperLimitedFor(shopper: string | null, now = Date.now()): number | null {
  if (!shopper) return null;
  const map = limited();
  const until = map.get(shopper);
  if (until === undefined) return null;
  if (until <= now) {
    map.delete(shopper);
    return null;
  }
  return Math.ceil((until - now) / 1000);
}
