import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bubbleProxyAnswersCheaply, lookUpProxyOnce } from '@/lib/server/proxy-in-next';

// The modules Next's server loads (one instance per file in Node's cache), shared with every
// test file this worker runs after this one: what is changed is put back afterwards.
const require = createRequire(import.meta.url);
type Bubbled = new (bubble: boolean, result: unknown) => Error & { bubble: boolean; result: unknown };
const { BubbledError, isBubbledError } = require('next/dist/server/lib/trace/tracer') as {
  BubbledError: Bubbled;
  isBubbledError: (error: unknown) => boolean;
};
type Match = (pathname: string, req: unknown, query: unknown) => boolean;
type Server = {
  dev: boolean;
  minimalMode: boolean;
  distDir: string;
  middlewareManifestPath: string;
  getMiddlewareManifest(): unknown;
  loadNodeMiddleware(): Promise<unknown>;
  getMiddleware(): Promise<{ match: Match; page: string } | undefined>;
  getEdgeFunctionInfo(params: { page: string; middleware: boolean }): { name: string } | null;
};
const nodeServer = (require('next/dist/server/next-server') as { default: { prototype: Server } }).default.prototype;
const asked = Object.fromEntries(
  (['getMiddlewareManifest', 'loadNodeMiddleware', 'getMiddleware', 'getEdgeFunctionInfo'] as const).map((name) => [
    name,
    nodeServer[name],
  ]),
);

const dirs: string[] = [];
afterAll(() => {
  Object.setPrototypeOf(BubbledError, Error);
  Object.assign(nodeServer, asked);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sd-proxy-in-next-'));
  dirs.push(dir);
  return dir;
};

/** A build folder as `next build` leaves it for a Node proxy matching `pattern`, and a server over it made without Next's constructor. */
function serverOver(pattern: string, dev = false, edge: Record<string, unknown> = {}): Server {
  const distDir = scratch();
  mkdirSync(join(distDir, 'server'));
  writeFileSync(
    join(distDir, 'server', 'middleware-manifest.json'),
    JSON.stringify({ version: 3, middleware: edge, functions: {}, sortedMiddleware: [] }),
  );
  writeFileSync(
    join(distDir, 'server', 'functions-config-manifest.json'),
    JSON.stringify({ version: 1, functions: { '/_middleware': {} } }),
  );
  writeFileSync(
    join(distDir, 'server', 'middleware.js'),
    `module.exports = { config: { matchers: [{ regexp: ${JSON.stringify(pattern)} }] }, default: () => undefined };`,
  );
  return Object.assign(Object.create(nodeServer) as Server, {
    dev,
    minimalMode: false,
    distDir,
    middlewareManifestPath: join(distDir, 'server', 'middleware-manifest.json'),
  });
}

describe("the proxy as Next's server calls it (lib/server/proxy-in-next.ts)", () => {
  it('finds nothing to change where Next is not installed', () => {
    const empty = scratch();
    expect(bubbleProxyAnswersCheaply(empty)).toBe(false);
    expect(lookUpProxyOnce(empty)).toBe(false);
  });

  it("passes an answer up in Next's own class, which the router still reads, without a stack", () => {
    expect(typeof new BubbledError(true, null).stack).toBe('string');
    expect(bubbleProxyAnswersCheaply()).toBe(true);
    expect(bubbleProxyAnswersCheaply()).toBe(false);

    const answer = { response: new Response('kept page') };
    let caught: unknown;
    try {
      throw new BubbledError(true, answer);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(BubbledError);
    expect(caught).toBeInstanceOf(Error);
    expect(isBubbledError(caught)).toBe(true);
    const bubbled = caught as InstanceType<Bubbled>;
    expect(bubbled.bubble).toBe(true);
    expect(bubbled.result).toBe(answer);
    expect(bubbled.stack).toBeUndefined();
    // Errors of every other kind keep theirs.
    expect(typeof new Error('other').stack).toBe('string');
  });

  it("lets each of Next's servers find the proxy once, with the same matcher, and next dev ask every time", async () => {
    const before = serverOver('^/before$');
    expect(await before.getMiddleware()).not.toBe(await before.getMiddleware());

    expect(lookUpProxyOnce()).toBe(true);
    expect(lookUpProxyOnce()).toBe(false);

    const server = serverOver('^/shop$');
    const found = await server.getMiddleware();
    expect(found?.page).toBe('/');
    expect(found?.match('/shop', {}, {})).toBe(true);
    expect(found?.match('/elsewhere', {}, {})).toBe(false);
    const proxy = await server.loadNodeMiddleware();
    expect(proxy).toMatchObject({ config: { matchers: [{ regexp: '^/shop$' }] } });
    const manifest = server.getMiddlewareManifest();
    expect(manifest).toMatchObject({ middleware: {} });

    // Asked again with the module and manifest gone from Node's cache: the first answers.
    delete require.cache[join(server.distDir, 'server', 'middleware.js')];
    delete require.cache[server.middlewareManifestPath];
    expect(await server.getMiddleware()).toBe(found);
    expect(await server.loadNodeMiddleware()).toBe(proxy);
    expect(server.getMiddlewareManifest()).toBe(manifest);

    // Not an Edge function: asked once, whatever the manifest says afterwards.
    const asProxy = { page: '/', middleware: true };
    expect(server.getEdgeFunctionInfo(asProxy)).toBeNull();
    writeFileSync(
      server.middlewareManifestPath,
      JSON.stringify({ middleware: { '/': { name: 'late', files: ['late.js'] } }, functions: {} }),
    );
    expect(server.getEdgeFunctionInfo(asProxy)).toBeNull();

    // An Edge proxy is asked about as before, every time.
    const edge = serverOver('^/edge$', false, { '/': { name: 'middleware', files: ['server/edge.js'] } });
    const info = edge.getEdgeFunctionInfo(asProxy);
    expect(info?.name).toBe('middleware');
    expect(edge.getEdgeFunctionInfo(asProxy)).not.toBe(info);

    // Another server keeps its own; a dev server asks each time.
    const other = serverOver('^/other$');
    expect((await other.getMiddleware())?.match('/other', {}, {})).toBe(true);
    const dev = serverOver('^/dev$', true);
    expect(await dev.getMiddleware()).not.toBe(await dev.getMiddleware());
  });

  it('keeps no failed load: the next ask loads again', async () => {
    const server = serverOver('^/late$');
    writeFileSync(join(server.distDir, 'server', 'middleware.js'), 'throw new Error("a broken build");');
    await expect(server.loadNodeMiddleware()).rejects.toThrow('a broken build');
    const proxyFile = join(server.distDir, 'server', 'middleware.js');
    delete require.cache[proxyFile];
    writeFileSync(proxyFile, 'module.exports = { config: { matchers: [{ regexp: "^/late$" }] } };');
    expect(await server.loadNodeMiddleware()).toMatchObject({ config: { matchers: [{ regexp: '^/late$' }] } });
  });
});
