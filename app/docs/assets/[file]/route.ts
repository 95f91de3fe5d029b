import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

// GET /docs/assets/{file} — the renderer's own static files, from the installed package.
// A Map, not an object: `constructor` or `__proto__` must not name a file.
const FILES = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
]);

/**
 * Read once per process: the bundle is 1.7 MB. The reference links them with the package's
 * version in the query (app/docs/route.ts), so a browser may keep them for good and a new
 * version is a new URL.
 */
const loaded = new Map<string, Promise<{ body: ArrayBuffer; etag: string }>>();

function load(file: string) {
  let entry = loaded.get(file);
  if (!entry) {
    entry = readFile(join(process.cwd(), 'node_modules', 'swagger-ui-dist', file)).then((bytes) => ({
      body: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
      etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`,
    }));
    entry.catch(() => loaded.delete(file));
    loaded.set(file, entry);
  }
  return entry;
}

export async function GET(req: Request, ctx: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await ctx.params;
  const type = FILES.get(file);
  if (!type) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const { body, etag } = await load(file);
  const headers = { 'Content-Type': type, 'Cache-Control': 'public, max-age=31536000, immutable', ETag: etag };
  if (req.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  return new Response(body, { headers });
}
