import { createRequire } from 'node:module';
import { join } from 'node:path';

type Tracer = { BubbledError?: unknown };

/**
 * Lets Next pass the proxy's answers up without a stack trace, and returns whether it did.
 * Next's server hands what proxy.ts returned (an API read, a kept page, a rewrite: nearly
 * every request) to its router by throwing it, as a `BubbledError`
 * (next/dist/server/lib/trace/tracer.js), which extends Error. So each of those requests
 * captures a stack trace through its async frames that nothing ever reads: ~7 µs, 1.7 % of a
 * cached API read's CPU (scripts/bench/HISTORY.md, 2026-12-01).
 *
 * Here the class's parent constructor becomes a plain function, which `super()` then calls
 * instead of Error's: the object is made as before, from the same prototype chain (still an
 * Error), with its `bubble` and `result`, and no `stack`. Next's router reads only `result`.
 * The module is the one Next's server loaded: Node keeps one instance per file, and Next is
 * resolved from the app's folder, as `next start` and a standalone server.js resolve it.
 */
export function bubbleProxyAnswersCheaply(from = process.cwd()): boolean {
  let tracer: Tracer;
  try {
    tracer = createRequire(join(from, 'package.json'))('next/dist/server/lib/trace/tracer') as Tracer;
  } catch {
    return false;
  }
  const bubbled = tracer.BubbledError;
  // Only the class this was checked against: a direct subclass of Error (and not yet changed).
  if (typeof bubbled !== 'function' || Object.getPrototypeOf(bubbled) !== Error) return false;
  Object.setPrototypeOf(bubbled, function withoutStack() {});
  return true;
}
