import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

// scripts/bench/query-plans.ts runs the API's hot operations (and the checkout sweep) on a
// seeded catalog, records every statement the driver compiles and asks SQLite for its plan.
// Run here, a statement that starts reading a whole table fails the tests, not only a
// benchmark someone has to remember to run.
const ROOT = new URL('..', import.meta.url).pathname;
vi.setConfig({ testTimeout: 120_000 });

describe('query plans', () => {
  it('no statement of the hot paths reads a whole table', () => {
    const result = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
        '--conditions=react-server',
        join(ROOT, 'scripts', 'bench', 'query-plans.ts'),
        '--products=500',
      ],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' }, timeout: 120_000 },
    );
    const flagged = result.stdout
      .split('\n')
      .map((line, i, lines) =>
        line.includes('!! ')
          ? `${lines
              .slice(0, i)
              .findLast((l) => l.startsWith('['))
              ?.slice(0, 160)}\n${line}`
          : null,
      )
      .filter(Boolean);
    const how = `exit status ${result.status}, signal ${result.signal}\n${result.stderr}`;
    expect(flagged, how).toEqual([]);
    expect(result.stdout, how).toMatch(/\n\d+ statements; no full table scans; \d+ sorts \(\?\? \)\n/);
    // The sweep is among the statements planned, through its own index.
    expect(result.stdout, how).toMatch(/\[checkout sweep\][^\n]*\n\s+SEARCH checkout_sessions USING INDEX checkout_sessions_sweep_idx/);
    expect(result.status, how).toBe(0);
  });
});
