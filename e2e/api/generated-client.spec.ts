import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { expect, test } from '../support/contract';
import { creds } from '../support/api';

// A client generated from the live document drives a whole purchase, type-checked first.
test('a client generated from /site/v1/openapi.json type-checks under strict TypeScript and completes a purchase', async ({
  request,
  baseURL,
}, testInfo) => {
  test.slow();
  const doc = await (await request.get('/site/v1/openapi.json')).json();
  const dir = testInfo.outputPath('client');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'schema.d.ts'), astToString(await openapiTS(doc)));
  copyFileSync(resolve('e2e/client/flow.ts'), join(dir, 'flow.ts'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'esnext',
        moduleResolution: 'bundler',
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        noEmit: true,
        skipLibCheck: true,
        lib: ['ES2023', 'DOM'],
        types: ['node'],
      },
      files: ['flow.ts', 'schema.d.ts'],
    }),
  );

  const tsc = resolve('node_modules/.bin/tsc');
  let typeErrors = '';
  try {
    execFileSync(tsc, ['-p', dir], { encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    typeErrors = String((error as { stdout?: string }).stdout ?? error);
  }
  expect(typeErrors, 'the flow program against the generated types').toBe('');

  const out = execFileSync(process.execPath, ['--import', 'tsx', join(dir, 'flow.ts'), baseURL!, creds().extended], {
    encoding: 'utf8',
    cwd: resolve('.'),
  });
  const result = JSON.parse(out.trim().split('\n').at(-1)!);
  expect(result).toMatchObject({
    site: 'demo',
    product: 'fjord-ceramic-mug',
    email: 'kim@xn--bcher-kva.de',
    status: 'payment_pending',
  });
  expect(result.suggestions).toBeGreaterThan(0);
  expect(result.total).toMatch(/^\d+\.\d{2}$/);
});
