import { endpoint } from '@/lib/api/route';
import { requestIdFor } from '@/lib/http/request-id';
import { buildOpenApiDocument } from '@/lib/contract/openapi';
import { etagMatches, strongEtag } from '@/lib/platform/cache/http';

export const dynamic = 'force-dynamic';

const body = JSON.stringify(buildOpenApiDocument());
const etag = strongEtag(body);

// GET /site/v1/openapi.json — public, no credential; the other methods answer as on every API path.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  GET: async (req) => {
    const headers = {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
      'Access-Control-Allow-Origin': '*',
      ETag: etag,
      'X-Request-Id': requestIdFor(req),
    };
    if (etagMatches(req.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
    return new Response(body, { headers });
  },
});
