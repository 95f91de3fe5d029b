import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../support/contract';

// The benchmark's memory probe is built only for the benchmark (next.config.mjs).
test('a production build has no benchmark routes', async ({ request }) => {
  const manifest = join(process.env.NEXT_DIST_DIR || '.next', 'app-path-routes-manifest.json');
  test.skip(!existsSync(manifest), 'no build manifest next to the tests');
  const routes = Object.values(JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, string>);
  expect(routes.length).toBeGreaterThan(10);
  expect(routes.filter((route) => route.startsWith('/bench'))).toEqual([]);
  expect((await request.get('/bench-ceiling')).status()).toBe(404);
});
