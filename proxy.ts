import { problemResponse } from '@/lib/http/problems';
import { requestIdFor } from '@/lib/http/request-id';

/**
 * Next's router answers a bare 500 to a path whose percent-encoding is malformed
 * (`/products/%E0%A4%A`) before any handler runs. Such a path names nothing: answer 404,
 * as problem+json under /site/v1. The matcher only lets paths containing `%` in here.
 */
export function proxy(req: Request): Response | undefined {
  const path = new URL(req.url).pathname;
  try {
    decodeURIComponent(path);
    return undefined;
  } catch {
    const requestId = requestIdFor(req);
    if (path.startsWith('/site/v1/')) {
      return problemResponse({ code: 'not_found', detail: 'No resource has that name (the path is not validly percent-encoded).', requestId, headers: { 'X-Request-Id': requestId } });
    }
    return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  }
}

export const config = { matcher: ['/(.*%.*)'] };
