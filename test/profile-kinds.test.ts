import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareKinds, timeByKind } from '../scripts/bench/profile-kinds';

// render-cost.ts --profile reads two servers' V8 profiles with these, over the measured
// rounds only: a made-up profile whose samples are known says what each sample counts for.
const dir = mkdtempSync(join(tmpdir(), 'sd-profile-kinds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const frame = (id: number, functionName: string, url: string) => ({ id, callFrame: { functionName, url } });
const NODES = [
  frame(1, '(root)', ''),
  frame(2, '(idle)', ''),
  frame(3, '(garbage collector)', ''),
  frame(4, 'renderToStream', 'file:///app/node_modules/next/dist/compiled/next-server/app-page-turbo.runtime.prod.js'),
  frame(5, 'ProductView', 'file:///app/.next/server/chunks/ssr/app_product_1x._.js'),
  frame(6, 'get', 'file:///app/node_modules/libsql/index.js'),
];

/** Samples of the given node ids, one every `stepUs` µs from `startUs`. */
function profileOf(name: string, ids: number[], startUs = 1_000_000, stepUs = 1_000): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    JSON.stringify({
      nodes: NODES,
      startTime: startUs,
      endTime: startUs + ids.length * stepUs,
      samples: ids,
      timeDeltas: ids.map(() => stepUs),
    }),
  );
  return file;
}

describe('time by kind of code', () => {
  it('counts every busy sample under its kind and leaves idle out', () => {
    const { busyMs, byKind } = timeByKind(profileOf('a.cpuprofile', [2, 2, 3, 4, 4, 4, 5, 6]));
    expect(busyMs).toBe(6);
    expect(Object.fromEntries(byKind)).toEqual({
      GC: 1,
      "Next's page runtime (React's renderers, app render)": 3,
      "the page's bundle: app code, its libraries, Next's code bundled with it": 1,
      'SQLite (libsql, @libsql/client)': 1,
    });
  });

  it('keeps only the samples taken within a window', () => {
    // samples at 1,001 … 1,008 ms: the window 1,003–1,005 ms holds the third to the fifth
    const file = profileOf('b.cpuprofile', [5, 5, 4, 4, 6, 3, 3, 3]);
    const { busyMs, byKind } = timeByKind(file, { fromUs: 1_003_000, toUs: 1_005_000 });
    expect(busyMs).toBe(3);
    expect(byKind.get("Next's page runtime (React's renderers, app render)")).toBe(2);
    expect(byKind.get('SQLite (libsql, @libsql/client)')).toBe(1);
    expect(byKind.has('GC')).toBe(false);
  });

  it("sets two profiles side by side, each kind's share scaled to an item's cost", () => {
    const shop = profileOf('shop.cpuprofile', [4, 4, 5, 6]); // half runtime, a quarter each of bundle and SQLite
    const bare = profileOf('bare.cpuprofile', [4, 4, 4, 5]);
    const table = compareKinds({ label: 'shop', file: shop, perItemMs: 40 }, { label: 'bare', file: bare, perItemMs: 20 });
    const line = (kind: string) =>
      table
        .split('\n')
        .find((l) => l.endsWith(kind))!
        .trim()
        .split(/\s+/)
        .slice(0, 3)
        .map(Number);
    expect(line('SQLite (libsql, @libsql/client)')).toEqual([10, 0, 10]);
    expect(line("Next's page runtime (React's renderers, app render)")).toEqual([20, 15, 5]);
    expect(line('all')).toEqual([40, 20, 20]);
    // largest difference first
    expect(table.split('\n')[1]).toMatch(/SQLite/);
  });
});
