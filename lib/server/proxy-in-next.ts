import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * Two things Next's server does around proxy.ts on every request, which only ever give the
 * same answer or nothing at all (docs/architecture.md, "Framework internals"). Each returns
 * whether it changed anything. The modules are the ones Next's server loaded: Node keeps one
 * instance per file, and Next is resolved from the app's folder, as `next start` and a
 * standalone server.js resolve it.
 */
function nextsOwn<T>(path: string, from: string): T | undefined {
  try {
    return createRequire(join(from, 'package.json'))(path) as T;
  } catch {
    return undefined;
  }
}

/**
 * Lets Next pass the proxy's answers up without a stack trace. Next's server hands what
 * proxy.ts returned (an API read, a kept page, a rewrite: nearly every request) to its router
 * by throwing it, as a `BubbledError` (next/dist/server/lib/trace/tracer.js), which extends
 * Error. So each of those requests captured a stack trace through its async frames that
 * nothing ever reads: ~7 µs, 1.7 % of a cached API read's CPU (scripts/bench/HISTORY.md,
 * 2026-12-01).
 *
 * Here the class's parent constructor becomes a plain function, which `super()` then calls
 * instead of Error's: the object is made as before, from the same prototype chain (still an
 * Error), with its `bubble` and `result`, and no `stack`. Next's router reads only `result`.
 */
export function bubbleProxyAnswersCheaply(from = process.cwd()): boolean {
  const bubbled = nextsOwn<{ BubbledError?: unknown }>('next/dist/server/lib/trace/tracer', from)?.BubbledError;
  // Only the class this was checked against: a direct subclass of Error (and not yet changed).
  if (typeof bubbled !== 'function' || Object.getPrototypeOf(bubbled) !== Error) return false;
  Object.setPrototypeOf(bubbled, function withoutStack() {});
  return true;
}

type NodeServer = {
  dev?: boolean;
  getMiddlewareManifest(): unknown;
  loadNodeMiddleware(): Promise<unknown>;
  getMiddleware(): Promise<unknown>;
  getEdgeFunctionInfo(params: { page: string; middleware: boolean }): unknown;
};
const FOUND = ['getMiddlewareManifest', 'loadNodeMiddleware', 'getMiddleware'] as const;
const ASKED = [...FOUND, 'getEdgeFunctionInfo'] as const;
const LOOKED_UP_ONCE = Symbol.for('site-delivery.proxyLookedUpOnce');

/**
 * Lets Next's server find the proxy once. For every request it asks six or seven times
 * where the proxy is (`getMiddleware`, `loadNodeMiddleware`, `getMiddlewareManifest`, and
 * whether it is an Edge function, `getEdgeFunctionInfo`, of next/dist/server/next-server.js),
 * and each time `require`s the build's manifests and the proxy's module again and makes a new
 * matcher from its config: ~4 % of a cached API read's CPU, for answers that are the same
 * objects every time (Node's module cache) outside `next dev`. Here each server keeps each
 * answer from its first ask, and the Edge question's answer for the proxy only when it is
 * "none" (ours runs on Node); a failed load is not kept, and `next dev`, whose build changes,
 * asks as before.
 */
export function lookUpProxyOnce(from = process.cwd()): boolean {
  const server = nextsOwn<{ default?: { prototype?: NodeServer } }>('next/dist/server/next-server', from)?.default?.prototype;
  if (!server || Reflect.has(server, LOOKED_UP_ONCE) || ASKED.some((name) => typeof server[name] !== 'function')) return false;
  for (const name of FOUND) {
    const ask = server[name] as (this: NodeServer) => unknown;
    const answers = new WeakMap<NodeServer, unknown>();
    Object.defineProperty(server, name, {
      configurable: true,
      writable: true,
      value: function once(this: NodeServer) {
        if (this.dev) return ask.call(this);
        if (answers.has(this)) return answers.get(this);
        const answer = ask.call(this);
        answers.set(this, answer);
        if (answer instanceof Promise) answer.catch(() => answers.delete(this));
        return answer;
      },
    });
  }
  const edgeInfo = server.getEdgeFunctionInfo;
  const notOnEdge = new WeakSet<NodeServer>();
  Object.defineProperty(server, 'getEdgeFunctionInfo', {
    configurable: true,
    writable: true,
    value: function onceForTheProxy(this: NodeServer, params: { page: string; middleware: boolean }) {
      // The proxy's page is '/' (getMiddleware's answer); every other question is asked as before.
      if (this.dev || params.middleware !== true || params.page !== '/') return edgeInfo.call(this, params);
      if (notOnEdge.has(this)) return null;
      const info = edgeInfo.call(this, params);
      if (info === null) notOnEdge.add(this);
      return info;
    },
  });
  Object.defineProperty(server, LOOKED_UP_ONCE, { value: true });
  return true;
}
