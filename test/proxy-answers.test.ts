import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bubbleProxyAnswersCheaply } from '@/lib/server/proxy-answers';

// The module Next's server loads (one instance per file in Node's cache), shared with every
// test file this worker runs after this one: its class is put back afterwards.
type Bubbled = new (bubble: boolean, result: unknown) => Error & { bubble: boolean; result: unknown };
const tracer = createRequire(import.meta.url)('next/dist/server/lib/trace/tracer') as {
  BubbledError: Bubbled;
  isBubbledError: (error: unknown) => boolean;
};
const { BubbledError, isBubbledError } = tracer;

afterAll(() => {
  Object.setPrototypeOf(BubbledError, Error);
});

describe("the proxy's answers passed up without a stack trace (lib/server/proxy-answers.ts)", () => {
  it('finds nothing to change where Next is not installed', () => {
    const empty = mkdtempSync(join(tmpdir(), 'sd-no-next-'));
    try {
      expect(bubbleProxyAnswersCheaply(empty)).toBe(false);
    } finally {
      rmSync(empty, { recursive: true });
    }
  });

  it("changes Next's own class once: a thrown answer still reads as Next's router reads it, without a stack", () => {
    expect(typeof new BubbledError(true, null).stack).toBe('string');
    expect(bubbleProxyAnswersCheaply()).toBe(true);
    expect(bubbleProxyAnswersCheaply()).toBe(false);

    const answer = { response: new Response('kept page') };
    let caught: unknown;
    try {
      throw new BubbledError(true, answer);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(BubbledError);
    expect(caught).toBeInstanceOf(Error);
    expect(isBubbledError(caught)).toBe(true);
    const bubbled = caught as InstanceType<Bubbled>;
    expect(bubbled.bubble).toBe(true);
    expect(bubbled.result).toBe(answer);
    expect('result' in bubbled && 'response' in (bubbled.result as object)).toBe(true);
    expect(bubbled.stack).toBeUndefined();
    // Errors of every other kind keep theirs.
    expect(typeof new Error('other').stack).toBe('string');
  });
});
