// Canaries for the few places the shop leans on Next.js or Node internals rather than a
// public API (docs/architecture.md, "Framework internals"). Each fails on an upgrade that
// moves the behaviour relied on, so the upgrade stops here instead of in production.
// The page cache's subclass of Next's file-system cache is exercised through Next's own
// IncrementalCache in content-security-policy.test.ts.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { guardServer } from '@/lib/server/server-guard';

vi.mock('server-only', () => ({}));

const require = createRequire(import.meta.url);
const nextSource = (path: string) => readFileSync(require.resolve(`next/dist/${path}`), 'utf8');

describe('the Next.js the internals were checked against', () => {
  it('is pinned exactly, and installed at the pin', () => {
    const pin = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> })
      .dependencies.next;
    expect(pin).toMatch(/^\d+\.\d+\.\d+$/);
    expect((require('next/package.json') as { version: string }).version).toBe(pin);
  });

  it('still has the files the shop names by path: the CLI npm start runs, the cache it extends', () => {
    expect(existsSync(require.resolve('next/dist/bin/next'))).toBe(true);
    const fileSystemCache = require('next/dist/server/lib/incremental-cache/file-system-cache.js') as { default: { prototype: object } };
    for (const method of ['get', 'set', 'revalidateTag'])
      expect(typeof Reflect.get(fileSystemCache.default.prototype, method), method).toBe('function');
  });

  it('takes the page cache from the global handler slot when next.config names none', () => {
    const source = nextSource('server/lib/incremental-cache/index.js');
    expect(source).toContain("Symbol.for('@next/cache-handlers')");
    expect(source).toMatch(/globalCacheHandler[^\n]*\.FetchCache/);
  });

  it('keeps each IncrementalCache it makes where the page cache finds it, and still measures every entry it stores', () => {
    // lib/security/page-cache-handler.mjs (measureEntriesCheaply): once Next stops measuring
    // page entries, that wrapper has nothing left to spare and should go.
    expect(nextSource('server/route-modules/route-module.js')).toContain('globalThis.__incrementalCache = incrementalCache;');
    const pageRuntime = nextSource('compiled/next-server/app-page-turbo.runtime.prod.js');
    expect(pageRuntime).toMatch(/globalThis\.__incrementalCache=\w+/);
    expect(pageRuntime).toMatch(/let \w+=JSON\.stringify\(\w+\)\.length;if\(\w+\.fetchCache&&/);
  });

  it('leaves SIGTERM to the application when NEXT_MANUAL_SIG_HANDLE is set (lib/server/shutdown.ts)', () => {
    expect(nextSource('server/lib/start-server.js')).toMatch(
      /if \(!process\.env\.NEXT_MANUAL_SIG_HANDLE\) \{\s*process\.on\('SIGINT', cleanup\);\s*process\.on\('SIGTERM', cleanup\);/,
    );
  });

  it("binds async context through Node's AsyncLocalStorage class, whose statics lib/server/async-context.ts replaces", () => {
    expect(nextSource('server/node-environment-baseline.js')).toMatch(/globalThis\.AsyncLocalStorage = AsyncLocalStorage;/);
    const binding = nextSource('server/app-render/async-local-storage.js');
    expect(binding).toContain('return maybeGlobalAsyncLocalStorage.snapshot();');
    expect(binding).toContain('return maybeGlobalAsyncLocalStorage.bind(fn);');
    expect(nextSource('server/async-storage/work-store.js')).toContain('runInCleanSnapshot: (0, _asynclocalstorage.createSnapshot)()');
  });

  it("passes the proxy's answer up by throwing the tracer module's BubbledError, read only for its result (lib/server/proxy-in-next.ts)", () => {
    const server = nextSource('server/next-server.js');
    expect(server).toContain('const _tracer = require("./lib/trace/tracer");');
    expect(server).toContain('throw new _tracer.BubbledError(true, result);');
    expect(nextSource('server/lib/trace/tracer.js')).toContain('class BubbledError extends Error {');
    // The router takes the answer from `result` and never reads the error's stack.
    const router = nextSource('server/lib/router-utils/resolve-routes.js');
    expect(router).toContain("if (!('result' in err) || !('response' in err.result)) {");
    expect(router).toContain('middlewareRes = err.result.response;');
  });

  it('looks up the proxy through three methods whose answers come from the module cache (lib/server/proxy-in-next.ts)', () => {
    const server = nextSource('server/next-server.js');
    expect(server).toMatch(
      /getMiddlewareManifest\(\) \{\s*if \(this\.minimalMode\) \{\s*return null;\s*\} else \{\s*const manifest = require\(this\.middlewareManifestPath\);/,
    );
    expect(server).toContain("return require((0, _path.join)(/* turbopackIgnore: true */ this.distDir, 'server', 'middleware.js'));");
    expect(server).toMatch(
      /async getMiddleware\(\) \{[^]*?const manifest = this\.getMiddlewareManifest\(\);[^]*?await this\.loadNodeMiddleware\(\);/,
    );
    // Asked per request by the request handler, the catch-all and runMiddleware.
    expect(nextSource('server/base-server.js')).toContain('const middleware = await this.getMiddleware();');
    expect(server.match(/await this\.(getMiddleware|loadNodeMiddleware)\(\)/g)?.length).toBeGreaterThanOrEqual(4);
    // Whether the proxy is an Edge function: asked of page '/', getMiddleware's, with middleware: true.
    expect(server).toMatch(/this\.getEdgeFunctionInfo\(\{\s*page: middleware\.page,\s*middleware: true\s*\}\)/);
    expect(server).toMatch(/\]\),\s*page: '\/'\s*\};/);
  });

  it('serves over a node:http Server, whose request event the server guard sees', () => {
    expect(nextSource('server/lib/start-server.js')).toMatch(/_http\.default\.createServer\(requestListener\)/);
  });
});

describe("the server guard on Node's http.Server.prototype.emit", () => {
  let server: Server | undefined;
  afterAll(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

  it('answers before the listener, on a server made as Next makes it', async () => {
    guardServer({ pageRenderLine: 8 });
    const seen: string[] = [];
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.end('listener');
    });
    await new Promise<void>((listening) => server!.listen(0, '127.0.0.1', listening));
    const { port } = server.address() as AddressInfo;
    const send = (method: string, path: string) =>
      new Promise<{ status: number; body: string }>((answered, failed) => {
        const req = request({ host: '127.0.0.1', port, method, path }, (res) => {
          let body = '';
          res
            .setEncoding('utf8')
            .on('data', (chunk: string) => (body += chunk))
            .on('end', () => answered({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', failed).end();
      });
    // Node's fetch refuses TRACE; the guard answers it for every path (405), as it does `*`.
    expect((await send('TRACE', '/products')).status).toBe(405);
    expect(await send('GET', '/healthz')).toEqual({ status: 200, body: 'listener' });
    expect(seen).toEqual(['GET /healthz']);
  });
});
