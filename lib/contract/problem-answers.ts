import type { ZodError } from 'zod';
import { PROBLEMS, type FieldError, type ProblemCode } from './problems';

export const PROBLEM_TYPE_BASE = 'https://site-delivery.dev/problems/';

export type ProblemInit = {
  code: ProblemCode;
  detail: string;
  requestId: string;
  errors?: FieldError[];
  extensions?: Record<string, unknown>;
  headers?: Record<string, string>;
};

export function problemResponse({ code, detail, requestId, errors, extensions, headers }: ProblemInit): Response {
  const { status, title } = PROBLEMS[code];
  const body = {
    ...extensions,
    type: `${PROBLEM_TYPE_BASE}${code.replaceAll('_', '-')}`,
    title,
    status,
    detail,
    code,
    requestId,
    ...(errors && errors.length > 0 ? { errors } : {}),
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store', ...headers },
  });
}

/**
 * A check of our own names its code (`params.code`: `invalid_postal_code`, `invalid_region`,
 * `invalid_phone`, …); zod's generic `custom` never reaches a caller.
 */
function customCode(params: Record<string, unknown> | undefined): string {
  const code = params?.code;
  return typeof code === 'string' && /^[a-z][a-z_]{2,40}$/.test(code) ? code : 'invalid_value';
}

/** RFC 6901: `~` → `~0`, `/` → `~1`. */
function escapePointerToken(token: PropertyKey): string {
  return String(token).replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * One field error per zod issue. Body paths are plain pointers (`/lines/2/quantity`);
 * query and path parameters use `#/query/<name>` and `#/path/<name>`.
 */
export function zodFieldErrors(error: ZodError, where: 'body' | 'query' | 'path'): FieldError[] {
  return error.issues.slice(0, 50).flatMap((issue) => {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
    return keys.map((path) => {
      const tokens = path.map(escapePointerToken).join('/');
      const pointer = where === 'body' ? (tokens ? `/${tokens}` : '') : `#/${where}/${tokens}`;
      const code = issue.code === 'unrecognized_keys' ? 'unknown_field' : issue.code === 'custom' ? customCode(issue.params) : issue.code;
      const detail = issue.code === 'unrecognized_keys' ? 'Unknown field.' : issue.message;
      return { pointer, code, detail };
    });
  });
}
