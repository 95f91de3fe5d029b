import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;
const API = join(ROOT, 'app', 'site', 'v1');

const routeFiles = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('route.ts'))
    .map((path) => join(dir, path));

describe('API route segment config', () => {
  // Every /site/v1 answer depends on the request (credential, query, and everywhere its
  // X-Request-Id): never prerendered or cached by Next. Declared, Next also skips the proxy
  // it otherwise wraps the request in to find that out on every call.
  const files = routeFiles(API);

  it('finds the route handlers', () => {
    expect(files.length).toBeGreaterThanOrEqual(19);
  });

  it.each(files.map((file) => [relative(ROOT, file), file]))('%s is force-dynamic', (_name, file) => {
    expect(readFileSync(file, 'utf8')).toMatch(/^export const dynamic = 'force-dynamic';$/m);
  });

  // endpoint() answers every method it is given; a method left out of the export would be
  // answered by Next instead (OPTIONS listing every method, others a bare 405).
  it.each(files.filter((file) => !file.includes('[...path]')).map((file) => [relative(ROOT, file), file]))(
    '%s exports every method from endpoint()',
    (_name, file) => {
      expect(readFileSync(file, 'utf8')).toMatch(/^export const \{ GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS \} = endpoint\(\{$/m);
    },
  );
});
