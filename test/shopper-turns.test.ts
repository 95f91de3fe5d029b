import { describe, expect, it } from 'vitest';
import { DomainError } from '@/lib/platform/errors';
import { inShopperTurn, shoppersInLine } from '@/lib/platform/rate-limit/turns';

/** A read that runs until its test lets it finish. */
function held() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  let started = false;
  return {
    work: async () => {
      started = true;
      await done;
      return 'ok';
    },
    finish,
    get started() {
      return started;
    },
  };
}

describe('turns per shopper for list reads', () => {
  it('runs two of one shopper at a time, queues eight more, and refuses the rest with 429 at once', async () => {
    const reads = Array.from({ length: 10 }, held);
    const answers = reads.map((r) => inShopperTurn('203.0.113.7', r.work));
    await Promise.resolve();
    expect(reads.map((r) => r.started)).toEqual([true, true, ...Array(8).fill(false)]);
    // The eleventh finds the line full: a problem answer (429 rate_limited with Retry-After), not a wait.
    const refused = await inShopperTurn('203.0.113.7', async () => 'ran').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).code).toBe('rate_limited');
    // Another shopper, and a request that names none, are not held behind this one.
    expect(await inShopperTurn('198.51.100.1', async () => 'other')).toBe('other');
    expect(await inShopperTurn(null, async () => 'unnamed')).toBe('unnamed');
    // Each finished read passes its turn to the next in line, first come first served.
    reads[0]!.finish();
    await answers[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads.map((r) => r.started)).toEqual([true, true, true, ...Array(7).fill(false)]);
    for (const r of reads) r.finish();
    expect(await Promise.all(answers)).toEqual(Array(10).fill('ok'));
    expect(shoppersInLine()).toBe(0);
  });

  it('gives the turn back when a read fails', async () => {
    await expect(
      inShopperTurn('203.0.113.8', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(shoppersInLine()).toBe(0);
  });
});
