import { problemResponse } from '@/lib/contract/problem-answers';
import { requestIdFor } from '@/lib/http/request-id';

export const dynamic = 'force-dynamic';

// Any other path under /site/v1: a problem+json 404, never the storefront's HTML page.
function notFound(req: Request): Response {
  const requestId = requestIdFor(req);
  return problemResponse({ code: 'not_found', detail: 'No such operation.', requestId, headers: { 'X-Request-Id': requestId } });
}

export { notFound as GET, notFound as HEAD, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };
