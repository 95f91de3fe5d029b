import { buildOpenApiDocument } from '@/lib/contract/openapi';

// GET /site/v1/openapi.json — public, no credential.
const body = JSON.stringify(buildOpenApiDocument());

export function GET(): Response {
  return new Response(body, {
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' },
  });
}
