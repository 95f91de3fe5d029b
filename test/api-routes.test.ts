// The API's routes are listed once (app/site/v1/_routes.ts) for the proxy's early reads and
// for in-process calls. That list, the route folders Next serves and the contract's
// operations must name the same paths: a new operation without its folder, or a folder left
// out of the list, fails here rather than answering 404 to the shop.
import { readdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { API_ROUTES, answerInProcess, apiRouteFor } from '@/app/site/v1/_routes';
import { operations } from '@/lib/contract/operations';

vi.mock('server-only', () => ({}));

const API = new URL('../app/site/v1/', import.meta.url).pathname;
const NOT_OPERATIONS = new Set(['[[...path]]', 'openapi.json']);

function routeFolders(): string[] {
  return readdirSync(API, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('/route.ts'))
    .map((path) => path.slice(0, -'/route.ts'.length))
    .filter((folder) => !NOT_OPERATIONS.has(folder))
    .sort();
}

/** `/commerce/products/{handle}` → `commerce/products/[handle]` */
const folderOf = (path: string) => path.replace(/^\//, '').replace(/\{(\w+)\}/g, '[$1]');

describe('the API route list', () => {
  it('names every route folder, once', () => {
    const listed = API_ROUTES.map((r) => r.folder);
    expect([...listed].sort()).toEqual(routeFolders());
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('has a folder for every operation of the contract, and an operation for every folder', () => {
    expect([...new Set(operations.map((op) => folderOf(op.path)))].sort()).toEqual(routeFolders());
  });

  it('marks exactly the folders with a GET operation as serving GET', () => {
    for (const { folder, get } of API_ROUTES) {
      const methods = operations.filter((op) => folderOf(op.path) === folder).map((op) => op.method);
      expect({ folder, get }).toEqual({ folder, get: methods.includes('get') });
    }
  });

  it("finds a path's route with its parameters decoded, and nothing for other paths", () => {
    expect(apiRouteFor('/site/v1/commerce/products/k%C3%A5l')?.params).toEqual({ handle: 'kål' });
    expect(apiRouteFor('/site/v1/commerce/checkout-sessions/cs_1/prepare-payment')?.params).toEqual({ id: 'cs_1' });
    expect(apiRouteFor('/site/v1/commerce/products/mug/extra')).toBeNull();
    expect(apiRouteFor('/site/v1/commerce/products/')).toBeNull();
    expect(apiRouteFor('/products/mug')).toBeNull();
  });

  it("answers in-process as the route would: its own 401 without a credential, the API's 404 for no operation", async () => {
    const unauthorised = await answerInProcess(
      new Request('http://127.0.0.1:3000/site/v1/commerce/checkout-sessions', {
        method: 'POST',
        body: '{}',
        headers: { 'X-Request-Id': 'req_inproc' },
      }),
    );
    expect(unauthorised.status).toBe(401);
    expect(unauthorised.headers.get('x-request-id')).toBe('req_inproc');
    const nothing = await answerInProcess(new Request('http://127.0.0.1:3000/site/v1/no/such/thing'));
    expect(nothing.status).toBe(404);
    expect(nothing.headers.get('content-type')).toBe('application/problem+json');
  });
});
