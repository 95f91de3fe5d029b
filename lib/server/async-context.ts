import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';

type Runner = <R, A extends unknown[]>(fn: (...args: A) => R, ...args: A) => R;

/**
 * Binds `AsyncLocalStorage.snapshot()` and `AsyncLocalStorage.bind()` without the deprecated
 * `asyncResource` accessor (DEP0172) that Node 20 gives every bound function, and does
 * nothing where Node's own bind makes none (or where this already ran). Returns whether
 * it replaced them.
 *
 * Why: Next calls both on every request (its work store's snapshot, `after()`'s bind), and
 * on Node 20 each call makes two `util.deprecate` wrappers whose prototype is set to another
 * function: far dearer than the binding itself. These versions bind as Node does (one
 * AsyncResource per call, the function run in its scope with the caller's `this`, the same
 * `length`), so every store reads the same; only the deprecated property is missing.
 */
export function bindAsyncContextCheaply(): boolean {
  // Reading the descriptor does not call the deprecated getter. Once replaced, the accessor
  // is gone, so a second call finds nothing to do.
  const probe = AsyncLocalStorage.bind(() => {});
  if (!Object.getOwnPropertyDescriptor(probe, 'asyncResource')) return false;
  AsyncLocalStorage.bind = function bind<F extends (...args: never[]) => unknown>(fn: F): F {
    if (typeof fn !== 'function') return AsyncResource.bind(fn);
    const resource = new AsyncResource(fn.name || 'bound-anonymous-fn');
    const call = fn as unknown as (...args: unknown[]) => unknown;
    const bound = function (this: unknown, ...args: unknown[]) {
      return resource.runInAsyncScope(call, this, ...args);
    };
    Object.defineProperty(bound, 'length', { value: fn.length, configurable: true });
    return bound as unknown as F;
  };
  AsyncLocalStorage.snapshot = function snapshot(): Runner {
    const resource = new AsyncResource('bound-anonymous-fn');
    return (fn, ...args) => resource.runInAsyncScope(fn, undefined, ...args);
  };
  return true;
}
