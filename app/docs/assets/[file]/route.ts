import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

// GET /docs/assets/{file} — the renderer's own static files, from the installed package.
// A Map, not an object: `constructor` or `__proto__` must not name a file.
const FILES = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
]);

export async function GET(_req: Request, ctx: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await ctx.params;
  const type = FILES.get(file);
  if (!type) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const body = await readFile(join(process.cwd(), 'node_modules', 'swagger-ui-dist', file));
  return new Response(new Uint8Array(body), { headers: { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400' } });
}
