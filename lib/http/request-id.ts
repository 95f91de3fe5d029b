import { randomUUID } from 'node:crypto';

const VALID = /^[A-Za-z0-9._:-]{8,128}$/;

/** Echo a well-formed incoming X-Request-Id, else make one (randomUUID draws from a pooled buffer: no syscall per request). */
export function requestIdFor(req: Request): string {
  return requestIdFrom(req.headers.get('x-request-id'));
}

export function requestIdFrom(incoming: string | null | undefined): string {
  return incoming && VALID.test(incoming) ? incoming : `req_${randomUUID().replaceAll('-', '')}`;
}
