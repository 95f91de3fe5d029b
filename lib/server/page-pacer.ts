/**
 * A share of the process's time per shopper for list pages asked with a query (a search, a
 * sort, a price range, option filters): pages of endless combinations, each rendered on
 * request, never kept. One shopper's such pages may take at most `share` of the time (their
 * renders' durations over wall time), after a first `burstMs` at full speed; past that, each
 * next one waits its turn, and one that would wait longer than `maxWaitMs` is refused (503).
 *
 * Why: a render of such a page holds the event loop in blocks of several milliseconds, and a
 * visitor looping on them one at a time, whatever concurrency limit, keeps the process busy
 * most of the time, so every other shopper's page waits behind a block (issue #42: a kept
 * product page's p50 went from 2 ms to 12 ms). Paced, the loop is that visitor's for at most
 * `share` of the time. A person filtering a list (a page every second or so) never waits.
 *
 * Each page reserves its expected duration (the shopper's recent average) when it asks, so
 * pages asked together are spaced out, not all let through at once; when it ends, its
 * measured duration replaces the estimate.
 */
export class PagePacer {
  private readonly shoppers = new Map<string, { balance: number; at: number; estimate: number }>();

  constructor(
    readonly share: number,
    readonly burstMs: number,
    readonly maxWaitMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Reserves the shopper's next page: how long it must wait before it starts (0: now), and
   * `settle` to call with its duration once it ends; null when it would wait too long.
   */
  reserve(shopper: string): { wait: number; settle: (ms: number) => void } | null {
    const mine = this.refilled(shopper);
    const estimate = mine.estimate;
    const wait = mine.balance - estimate >= 0 ? 0 : (estimate - mine.balance) / this.share;
    if (wait > this.maxWaitMs) return null;
    mine.balance -= estimate;
    let settled = false;
    return {
      wait,
      settle: (ms) => {
        if (settled) return;
        settled = true;
        // A page streamed to a slow client takes long without holding the loop: counted up to a cap.
        const charged = Math.min(ms, MAX_CHARGE_MS);
        const now = this.refilled(shopper);
        now.balance += estimate - charged;
        now.estimate = (now.estimate + charged) / 2;
      },
    };
  }

  /** Shoppers with a debt or a recent page (for tests). */
  get tracked(): number {
    return this.shoppers.size;
  }

  private refilled(shopper: string) {
    const now = this.now();
    let mine = this.shoppers.get(shopper);
    if (!mine) {
      if (this.shoppers.size >= MAX_TRACKED) this.forgetRested(now);
      this.shoppers.set(shopper, (mine = { balance: this.burstMs, at: now, estimate: FIRST_ESTIMATE_MS }));
    }
    mine.balance = Math.min(this.burstMs, mine.balance + (now - mine.at) * this.share);
    mine.at = now;
    return mine;
  }

  /** Drops the shoppers whose balance is full again (they start afresh, as they would). */
  private forgetRested(now: number): void {
    for (const [shopper, mine] of this.shoppers)
      if (mine.balance + (now - mine.at) * this.share >= this.burstMs) this.shoppers.delete(shopper);
  }
}

/** What a shopper's first list page is expected to take, before one of theirs was measured. */
const FIRST_ESTIMATE_MS = 30;
/** The most one page is charged. */
const MAX_CHARGE_MS = 150;
/** Shoppers tracked before the rested ones are swept out. */
const MAX_TRACKED = 10_000;

/**
 * The list pages a query makes endless (`/search?…`, `/products?…`, `/collections/<handle>?…`),
 * Next's own `_rsc` aside (a navigation's or prefetch's cache-buster, not a list's query).
 */
export function isQueriedListPage(target: string): boolean {
  const q = target.indexOf('?');
  if (q < 0 || !/^\/(?:search|products|collections\/[^/]+)$/.test(target.slice(0, q))) return false;
  for (const name of new URLSearchParams(target.slice(q + 1)).keys()) if (name !== '_rsc') return true;
  return false;
}
