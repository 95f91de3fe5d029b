import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { bindAsyncContextCheaply } from '@/lib/server/async-context';

// Node's own versions, to compare against and to put back: the class is the process's, shared
// with every test file this worker runs after this one.
const nodeBind = AsyncLocalStorage.bind;
const nodeSnapshot = AsyncLocalStorage.snapshot;
const replaced = bindAsyncContextCheaply();
const ours = { bind: AsyncLocalStorage.bind, snapshot: AsyncLocalStorage.snapshot };
const node = { bind: nodeBind.bind(AsyncLocalStorage), snapshot: nodeSnapshot.bind(AsyncLocalStorage) };

afterAll(() => {
  AsyncLocalStorage.bind = nodeBind;
  AsyncLocalStorage.snapshot = nodeSnapshot;
});

const store = new AsyncLocalStorage<string>();
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
// Reading the descriptor does not call the deprecated getter (which would warn).
const accessorOf = (bound: object) => Object.getOwnPropertyDescriptor(bound, 'asyncResource');

describe('async context bound without the deprecated accessor (lib/server/async-context.ts)', () => {
  it("replaces Node 20's bind and snapshot once, and only where Node's bind makes the accessor", () => {
    const nodeMakesAccessor = accessorOf(nodeBind(() => {})) !== undefined;
    expect(replaced).toBe(nodeMakesAccessor);
    if (!nodeMakesAccessor) return expect(AsyncLocalStorage.bind).toBe(nodeBind);
    expect(bindAsyncContextCheaply()).toBe(false);
    expect(AsyncLocalStorage.bind).toBe(ours.bind);
    expect(accessorOf(ours.bind(() => {}))).toBeUndefined();
    expect(accessorOf(ours.snapshot())).toBeUndefined();
  });

  for (const [name, impl] of [
    ['Node', node],
    ['ours', ours],
  ] as const) {
    describe(`${name}'s`, () => {
      it('snapshot runs a function in the context it was taken in, with its arguments and result', async () => {
        const run = store.run('taken', () => impl.snapshot());
        expect(store.run('called', () => run((a: number, b: number) => `${store.getStore()} ${a + b}`, 2, 3))).toBe('taken 5');
        expect(run(() => store.getStore())).toBe('taken');
        // What the function starts keeps the context after it returns.
        const later = store.run('called', () =>
          run(async () => {
            await tick();
            return store.getStore();
          }),
        );
        await expect(later).resolves.toBe('taken');
        expect(
          run(function (this: unknown) {
            return this;
          }),
        ).toBeUndefined();
      });

      it("bind keeps the bound context, the caller's `this`, arguments, result and length", async () => {
        const bound = store.run('bound', () =>
          impl.bind(function (this: { label: string } | undefined, a: string, b: string) {
            return `${store.getStore()} ${this?.label} ${a}${b}`;
          }),
        );
        expect(bound.length).toBe(2);
        const holder = { label: 'holder', bound };
        expect(store.run('called', () => holder.bound('x', 'y'))).toBe('bound holder xy');
        const awaited = store.run('bound', () =>
          impl.bind(async () => {
            await tick();
            return store.getStore();
          }),
        );
        await expect(store.run('called', awaited)).resolves.toBe('bound');
        expect(store.run('called', () => impl.bind(() => store.getStore()))()).toBe('called');
      });

      it('bind refuses what is not a function, as Node does', () => {
        expect(() => impl.bind('not a function' as unknown as () => void)).toThrow(
          expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }),
        );
      });
    });
  }
});
