import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import { Problem } from '@/lib/contract/common';

export type Credentials = {
  core: string;
  extended: string;
  outletCore: string;
  outletExtended: string;
  storefront: string;
  revoked: string;
};

let cached: Credentials | undefined;
/** Credentials made for this run by scripts/e2e-fixture.ts (read after the server is up). */
export function creds(): Credentials {
  cached ??= JSON.parse(readFileSync(join(process.env.E2E_DATA_DIR!, 'credentials.json'), 'utf8')) as Credentials;
  return cached;
}

export const V1 = '/site/v1';

export function auth(token: string, extra: Record<string, string> = {}) {
  return { Authorization: `Bearer ${token}`, ...extra };
}

/** GET with a credential (default: the demo core credential). */
export function get(request: APIRequestContext, path: string, token = creds().core, headers: Record<string, string> = {}) {
  return request.get(`${V1}${path}`, { headers: auth(token, headers), failOnStatusCode: false });
}

/** POST JSON with a credential (default: the demo extended credential). */
export function post(
  request: APIRequestContext,
  path: string,
  data: unknown,
  token = creds().extended,
  headers: Record<string, string> = {},
) {
  return request.post(`${V1}${path}`, {
    headers: auth(token, { 'Content-Type': 'application/json', ...headers }),
    data: JSON.stringify(data),
    failOnStatusCode: false,
  });
}

/** Asserts a problem+json answer with the given status and code, and returns its body. */
export async function expectProblem(res: APIResponse, status: number, code: string) {
  expect(res.status(), await res.text()).toBe(status);
  expect(res.headers()['content-type']).toContain('application/problem+json');
  expect(res.headers()['x-request-id']).toBeTruthy();
  const body = Problem.parse(await res.json());
  expect(body.code).toBe(code);
  expect(body.status).toBe(status);
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(js|ts):\d+|SQLITE|SELECT |sqlite/i);
  return body;
}
