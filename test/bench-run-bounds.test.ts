import { EventEmitter } from 'node:events';
import type { Result } from 'autocannon';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bounded } from '../scripts/bench/load';

// The benchmark's load runs fail instead of waiting for ever (a 10-minute mixed run once
// held the bench with the server idle): a stand-in for an autocannon run, driven on fake
// timers, so each bound is reached exactly.
const LIMITS = { stallMs: 5_000, overdueMs: 3_000 };

class FakeRun extends EventEmitter {
  stops = 0;
  private settle!: (result: Result) => void;
  private readonly done = new Promise<Result>((resolve) => (this.settle = resolve));
  constructor(private readonly finishOnStop: boolean) {
    super();
  }
  then<A = Result, B = never>(
    onResult?: ((r: Result) => A | PromiseLike<A>) | null,
    onError?: ((e: unknown) => B | PromiseLike<B>) | null,
  ) {
    return this.done.then(onResult, onError);
  }
  stop(): void {
    this.stops += 1;
    if (this.finishOnStop) this.finish();
  }
  finish(): void {
    this.settle({ duration: 1 } as Result);
  }
  answer(): void {
    this.emit('response', null, 200, 100, 5);
  }
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a bounded load run', () => {
  it('resolves with its result when it answers and ends on time, with a heartbeat while it runs', async () => {
    const run = new FakeRun(false);
    const beats: number[] = [];
    const result = bounded(run, 10, { every: 2, heartbeat: ({ answered }) => beats.push(answered) }, LIMITS);
    for (let s = 0; s < 10; s += 1) {
      run.answer();
      await vi.advanceTimersByTimeAsync(1000);
    }
    run.finish();
    await expect(result).resolves.toEqual({ duration: 1 });
    expect(run.stops).toBe(0);
    expect(beats).toEqual([2, 4, 6, 8, 10]);
  });

  it('is stopped when it falls silent, and then fails saying so', async () => {
    const run = new FakeRun(true);
    const result = bounded(run, 600, undefined, LIMITS);
    const failed = expect(result).rejects.toThrow(/was stopped \(silent for 5 s\): 3 answers and 0 errors/);
    run.answer();
    run.answer();
    run.answer();
    await vi.advanceTimersByTimeAsync(LIMITS.stallMs + 2_000);
    await failed;
    expect(run.stops).toBe(1);
  });

  it('is stopped when it runs past its planned end, although it answers', async () => {
    const run = new FakeRun(true);
    const result = bounded(run, 4, undefined, LIMITS);
    const failed = expect(result).rejects.toThrow(/was stopped \(3 s past its planned 4 s\)/);
    for (let s = 0; s < 9 && run.stops === 0; s += 1) {
      run.answer();
      await vi.advanceTimersByTimeAsync(1000);
    }
    await failed;
    expect(run.stops).toBe(1);
  });

  it('fails when it does not end after being stopped', async () => {
    const run = new FakeRun(false);
    const result = bounded(run, 600, undefined, LIMITS);
    const failed = expect(result).rejects.toThrow(/did not finish \(silent for 5 s\): 0 answers/);
    await vi.advanceTimersByTimeAsync(LIMITS.stallMs + LIMITS.overdueMs + 3_000);
    await failed;
    expect(run.stops).toBeGreaterThan(1);
  });
});
