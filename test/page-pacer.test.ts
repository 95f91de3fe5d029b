import { describe, expect, it } from 'vitest';
import { isQueriedListPage, PagePacer } from '@/lib/server/page-pacer';

/** A pacer on a clock the test moves: a quarter of the time, a 100 ms burst, waits of at most 1 s. */
function pacer() {
  let now = 0;
  const pace = new PagePacer(0.25, 100, 1000, () => now);
  return { pace, advance: (ms: number) => (now += ms) };
}

describe('PagePacer', () => {
  it('lets a shopper through at full speed for the burst, then spaces their pages to their share of the time', () => {
    const { pace, advance } = pacer();
    // Pages of 40 ms one after the other: the burst (100 ms) lets the first ones start at once.
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const turn = pace.reserve('a')!;
      waits.push(turn.wait);
      advance(turn.wait + 40);
      turn.settle(40);
    }
    expect(waits.slice(0, 2)).toEqual([0, 0]);
    // Then each waits about three times its length: 40 ms of rendering in every 160 ms
    // (the estimate moves from its first guess, 30 ms, to what was measured).
    for (const wait of waits.slice(4)) {
      expect(wait).toBeGreaterThan(100);
      expect(wait).toBeLessThan(140);
    }
    // Another shopper is not held by the first one's debt.
    expect(pace.reserve('b')!.wait).toBe(0);
  });

  it('spaces pages asked at once, and refuses one that would wait past the longest wait', () => {
    const { pace } = pacer();
    const turns = Array.from({ length: 12 }, () => pace.reserve('a'));
    const waits = turns.map((t) => t?.wait ?? null);
    // 30 ms expected each (nothing measured yet): three within the burst, then 120 ms apart, up to 1 s.
    expect(waits.slice(0, 3)).toEqual([0, 0, 0]);
    expect(waits[3]).toBeCloseTo(80, 0);
    expect(waits[4]! - waits[3]!).toBeCloseTo(120, 0);
    expect(waits.filter((w) => w === null).length).toBeGreaterThan(0);
    for (const wait of waits.filter((w) => w !== null)) expect(wait).toBeLessThanOrEqual(1000);
  });

  it('gives back what a page that never rendered reserved, and forgets nothing a shopper still owes', () => {
    const { pace, advance } = pacer();
    for (let i = 0; i < 4; i++) pace.reserve('a')!.settle(0);
    expect(pace.reserve('a')!.wait).toBe(0);
    advance(10_000);
    expect(pace.tracked).toBe(1);
  });

  it('counts a page streamed to a slow client up to a cap', () => {
    const { pace, advance } = pacer();
    const turn = pace.reserve('a')!;
    advance(60_000);
    turn.settle(60_000);
    // Charged 150 ms, not a minute: the next page waits under a second, not hours.
    const next = pace.reserve('a');
    expect(next).not.toBeNull();
    expect(next!.wait).toBeLessThan(1000);
  });
});

describe('isQueriedListPage', () => {
  it('holds the list pages asked with a query, and neither plain lists, products nor Next’s own parameter', () => {
    for (const page of [
      '/search?q=mug',
      '/search?sort=title-asc&priceMax=10.00',
      '/products?option=Color%3ABlack',
      '/collections/kitchen?sort=newest',
    ])
      expect(isQueriedListPage(page), page).toBe(true);
    for (const page of [
      '/search',
      '/search?',
      '/collections/kitchen',
      '/collections/kitchen?_rsc=1x2y',
      '/products/mug?variant=1',
      '/cart?x=1',
      '/',
    ])
      expect(isQueriedListPage(page), page).toBe(false);
  });
});
