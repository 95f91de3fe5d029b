import 'server-only';
import { fetchSite } from './catalog';
import { processSlot } from '@/lib/process-state';

/**
 * Whether the API answers, as far as this process knows: the proxy asks before a shop page
 * is rendered, so a page made while the API is down answers 503 (HTTP fixes the status
 * before the page renders, and Next offers a page no way to choose 503 itself).
 *
 * A healthy answer is used at once and checked again in the background at most once a
 * second, so the check costs a page nothing; after a failure, requests wait for a fresh
 * check (one at a time, shared). The state is process-wide (lib/process-state) because the proxy and the
 * pages are separate bundles in the one process, and a page that finds the API failing
 * says so here (noteApiFailure), so the very next request checks again.
 */
const RECHECK_MS = 1000;

type Health = { up: boolean | null; checkedAt: number; probe: Promise<boolean> | null };

function health(): Health {
  return processSlot<Health>('siteApiHealth', () => ({ up: null, checkedAt: 0, probe: null }));
}

export async function siteApiAnswers(): Promise<boolean> {
  const state = health();
  const fresh = Date.now() - state.checkedAt < RECHECK_MS;
  if (state.up === true) {
    if (!fresh) void probe();
    return true;
  }
  if (state.up === false && fresh) return false;
  return probe();
}

/** A page could not read the API: the next request checks before it renders. */
export function noteApiFailure(): void {
  const state = health();
  state.up = false;
  state.checkedAt = 0;
}

/**
 * The API's own database just answered for the storefront's credential and its Site, read
 * in-process (the proxy's page key, lib/storefront/page-key.ts): what a probe would have
 * learnt, so the next probe waits its second. Never ends a noted failure: a probe does that.
 */
export function noteApiAnswered(): void {
  const state = health();
  if (state.up !== true) return;
  state.checkedAt = Date.now();
}

function probe(): Promise<boolean> {
  const state = health();
  state.probe ??= fetchSite()
    .then(
      () => true,
      () => false,
    )
    .then((up) => {
      state.up = up;
      state.checkedAt = Date.now();
      state.probe = null;
      return up;
    });
  return state.probe;
}
