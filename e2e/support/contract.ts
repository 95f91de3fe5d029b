/**
 * Every answer the API suite receives is checked against the OpenAPI document the server
 * publishes: the status must be declared for that operation, every header the API adds must
 * be declared for that status, and the body must match the declared schema (answers are
 * closed objects, so an undocumented field fails too). Anything the document does not
 * describe fails the test that received it.
 */
import { expect, type APIRequestContext, type APIResponse } from '@playwright/test';
import { test as base } from './request';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Schema = Record<string, unknown>;
type ResponseObject = { headers?: Record<string, unknown>; content?: Record<string, { schema: Schema }> };
type OperationObject = { operationId: string; responses: Record<string, ResponseObject> };
type Document = { paths: Record<string, Record<string, OperationObject>>; components?: Record<string, Record<string, unknown>> };

/** Headers HTTP itself, Next or the deployment adds, which an API document does not list. */
const TRANSPORT = new Set([
  'connection',
  'content-length',
  'content-type',
  'date',
  'keep-alive',
  'transfer-encoding',
  'content-encoding',
  // security headers every answer of the app carries (docs/security-headers.md)
  'content-security-policy',
  'x-content-type-options',
  'referrer-policy',
  'permissions-policy',
  'strict-transport-security',
  'x-frame-options',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
]);

const METHODS = new Set(['get', 'head', 'post', 'patch', 'put', 'delete']);

export class ContractChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: Array<{ path: string; regex: RegExp; statics: number }>;

  constructor(private readonly doc: Document) {
    addFormats.default(this.ajv);
    this.ajv.addFormat('idn-email', true);
    this.ajv.addSchema({ ...doc, $id: 'openapi' } as Schema);
    this.templates = Object.keys(doc.paths).map((path) => ({
      path,
      regex: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      statics: path.split('/').filter((s) => s && !s.startsWith('{')).length,
    }));
  }

  static async load(baseURL: string): Promise<ContractChecker> {
    const res = await fetch(`${baseURL}/site/v1/openapi.json`);
    if (!res.ok) throw new Error(`GET /site/v1/openapi.json answered ${res.status}`);
    return new ContractChecker((await res.json()) as Document);
  }

  /** Problems with one answer, as sentences; none when it is exactly what the document says. */
  async check(method: string, url: string, response: APIResponse): Promise<string[]> {
    const { pathname } = new URL(url);
    if (!pathname.startsWith('/site/v1/') || pathname === '/site/v1/openapi.json') return [];
    const m = method.toLowerCase();
    const status = response.status();
    const headers = response.headers();
    const template = this.templates.filter((t) => t.regex.test(pathname)).sort((a, b) => b.statics - a.statics)[0];
    const where = `${method.toUpperCase()} ${pathname} → ${status}`;

    if (!template || !METHODS.has(m) || !this.doc.paths[template.path]![m]) {
      // Outside the document's operations: only a problem may answer (404 for an unknown path,
      // 405 with Allow for a method the path does not serve), or OPTIONS' 204 with Allow.
      if (m === 'options' && status === 204) return headers.allow ? [] : [`${where}: OPTIONS without Allow`];
      const out: string[] = [];
      if (![404, 405, 414, 431].includes(status)) out.push(`${where}: not an operation of the document, yet not 404/405`);
      if (status === 405 && !headers.allow) out.push(`${where}: 405 without Allow`);
      if (m !== 'head' && !(headers['content-type'] ?? '').startsWith('application/problem+json')) out.push(`${where}: not problem+json`);
      return out;
    }

    const operation = this.doc.paths[template.path]![m]!;
    const declared = operation.responses[String(status)];
    if (!declared) return [`${where}: status ${status} is not declared for ${operation.operationId}`];
    const problems: string[] = [];

    const known = new Set(Object.keys(declared.headers ?? {}).map((h) => h.toLowerCase()));
    for (const name of Object.keys(headers)) {
      if (!TRANSPORT.has(name) && !known.has(name))
        problems.push(`${where}: header ${name} is not declared for ${operation.operationId} ${status}`);
    }

    const content = declared.content;
    if (!content || m === 'head' || status === 304) {
      const body = await response.body().catch(() => Buffer.alloc(0));
      if (body.length > 0) problems.push(`${where}: a body, where the document declares none`);
      return problems;
    }
    const type = (headers['content-type'] ?? '').split(';')[0]!.trim();
    const media = content[type];
    if (!media) return [...problems, `${where}: content type "${type}" is not declared (${Object.keys(content).join(', ')})`];
    const pointer = `openapi#/paths/${escape(template.path)}/${m}/responses/${status}/content/${escape(type)}/schema`;
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: pointer });
      this.validators.set(pointer, validate);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      return [...problems, `${where}: body is not JSON`];
    }
    if (!validate(body)) {
      for (const e of (validate.errors ?? []).slice(0, 5))
        problems.push(`${where}: body${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
    }
    return problems;
  }
}

function escape(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

const checkers = new Map<string, Promise<ContractChecker>>();
function checkerFor(baseURL: string): Promise<ContractChecker> {
  let checker = checkers.get(baseURL);
  if (!checker) checkers.set(baseURL, (checker = ContractChecker.load(baseURL)));
  return checker;
}

/** An APIRequestContext whose every answer under /site/v1 is checked against the document. */
export function checkedRequest(request: APIRequestContext, baseURL: string, seen: string[]): APIRequestContext {
  const verbs = ['get', 'head', 'post', 'patch', 'put', 'delete', 'fetch'] as const;
  const wrapped = Object.create(request) as APIRequestContext;
  for (const verb of verbs) {
    const original = request[verb].bind(request) as (url: string, options?: { method?: string }) => Promise<APIResponse>;
    (wrapped as unknown as Record<string, unknown>)[verb] = async (url: string, options?: { method?: string }) => {
      const response = await original(url, options);
      const method = verb === 'fetch' ? (options?.method ?? 'GET') : verb;
      const absolute = new URL(response.url() || url, baseURL).toString();
      seen.push(...(await (await checkerFor(baseURL)).check(method, absolute, response)));
      return response;
    };
  }
  return wrapped;
}

/**
 * The API suite's `test`: its `request` fixture checks every answer against the published
 * document, and a test fails at its end if any answer it received was not as documented.
 */
export const test = base.extend<{ request: APIRequestContext }>({
  request: async ({ request, baseURL }, provide) => {
    const problems: string[] = [];
    await provide(checkedRequest(request, baseURL!, problems));
    expect(problems, 'answers that the OpenAPI document does not describe').toEqual([]);
  },
});

export { expect };
