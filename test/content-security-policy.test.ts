import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { API_POLICY, hashPolicy, inlineSources, noncePolicy } from '@/lib/security/content-security-policy.mjs';
import PageCacheHandler, { registerPageCache } from '@/lib/security/page-cache-handler.mjs';
import { IncrementalCache } from 'next/dist/server/lib/incremental-cache';

const sha = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

function directive(policy: string, name: string): string[] {
  const found = policy.split('; ').find((d) => d.startsWith(`${name} `));
  return found ? found.split(' ').slice(1) : [];
}

describe('hashPolicy (cached pages)', () => {
  const html = [
    '<!DOCTYPE html><html><head><script src="/_next/static/chunks/a.js" async=""></script>',
    '<style>.x{color:red}</style></head><body>',
    '<script type="application/ld+json">{"@type":"Product"}</script>',
    '<script>(self.__next_f=self.__next_f||[]).push([0])</script>',
    '<script id="_R_">globalThis.x = "é";</script>',
    '<script>self.__next_f.push([1,"a"])\r\n</script>',
    '<script>(self.__next_f=self.__next_f||[]).push([0])</script>',
    '<script type="module">import "/m.js"</script>',
    '</body></html>',
  ].join('');

  it('allows each executable inline script by the hash the browser computes, once', () => {
    const scripts = directive(hashPolicy(html), 'script-src');
    expect(scripts).toEqual([
      "'self'",
      sha('(self.__next_f=self.__next_f||[]).push([0])'),
      sha('globalThis.x = "é";'),
      // The HTML parser turns CRLF into LF before the script's text exists.
      sha('self.__next_f.push([1,"a"])\n'),
      sha('import "/m.js"'),
    ]);
    // Neither the data block nor the file is an inline script.
    expect(scripts).not.toContain(sha('{"@type":"Product"}'));
  });

  it('allows inline styles by hash and never anything inline wholesale', () => {
    const policy = hashPolicy(html);
    expect(directive(policy, 'style-src')).toEqual(["'self'", sha('.x{color:red}')]);
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|nonce-/);
    expect(directive(policy, 'frame-ancestors')).toEqual(["'none'"]);
    expect(directive(policy, 'default-src')).toEqual(["'self'"]);
  });

  it('allows no inline script at all for a page without any', () => {
    expect(directive(hashPolicy('<html><body><p>hi</p></body></html>'), 'script-src')).toEqual(["'self'"]);
    expect(inlineSources('<p>hi</p>')).toEqual({ scripts: '', styles: '' });
  });
});

describe('noncePolicy (pages rendered on request)', () => {
  it('trusts the nonce and what its scripts load, nothing inline without it', () => {
    const policy = noncePolicy('abc123');
    expect(directive(policy, 'script-src')).toEqual(["'self'", "'nonce-abc123'", "'strict-dynamic'"]);
    expect(directive(policy, 'style-src')).toEqual(["'self'", "'nonce-abc123'"]);
    expect(policy).not.toMatch(/unsafe-/);
    expect(directive(policy, 'frame-ancestors')).toEqual(["'none'"]);
  });

  it('relaxes only under next dev, for its eval-based error stacks and hot-reloaded styles', () => {
    const dev = noncePolicy('abc123', { development: true });
    expect(directive(dev, 'script-src')).toEqual(["'self'", "'nonce-abc123'", "'strict-dynamic'", "'unsafe-eval'"]);
    expect(directive(dev, 'style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(noncePolicy('abc123', { development: false })).toBe(noncePolicy('abc123'));
  });

  it('leaves API answers nothing to load', () => {
    expect(API_POLICY).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});

describe('PageCacheHandler', () => {
  const handler = new PageCacheHandler({
    flushToDisk: false,
    serverDistDir: '/nonexistent',
    maxMemoryCacheSize: 1024 * 1024,
    revalidatedTags: [],
  });
  const page = (html: string) => ({
    kind: 'APP_PAGE',
    html,
    rscData: undefined,
    headers: { 'x-next-cache-tags': 't' } as Record<string, string>,
    status: 200,
    postponed: undefined,
    segmentData: undefined,
  });

  it('puts the page’s own policy in the entry’s headers before storing it, and keeps it', async () => {
    const entry = page('<html><body><script>run()</script></body></html>');
    const stored = handler.set('/storefront-cache/k1', entry, { cacheControl: { revalidate: false, expire: undefined } });
    // The filling request is answered from this very object: the policy must be there already.
    expect(entry.headers['content-security-policy']).toBe(hashPolicy(entry.html));
    await stored;
    const hit = await handler.get('/storefront-cache/k1', { kind: 'APP_PAGE', isRoutePPREnabled: false, isFallback: false });
    expect(hit?.value.headers['content-security-policy']).toContain(sha('run()'));
    expect(hit?.value.headers['x-next-cache-tags']).toBe('t');
  });

  it('adds the policy to a page that reached the cache without one (prerendered at build)', async () => {
    const entry = page('<html><body><script>boot()</script></body></html>');
    await Object.getPrototypeOf(PageCacheHandler.prototype).set.call(handler, '/prerendered', entry, {
      cacheControl: { revalidate: false, expire: undefined },
    });
    expect(entry.headers['content-security-policy']).toBeUndefined();
    const hit = await handler.get('/prerendered', { kind: 'APP_PAGE', isRoutePPREnabled: false, isFallback: false });
    expect(hit?.value.headers['content-security-policy']).toContain(sha('boot()'));
  });

  it('answers a miss of a memory-only page without looking on disk, and its hits as before', async () => {
    const looked: string[] = [];
    const fs = new Proxy(
      {},
      {
        get: (_, name) => () => {
          looked.push(String(name));
          throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
        },
      },
    );
    const onDisk = new PageCacheHandler({ fs, flushToDisk: false, serverDistDir: '/nonexistent', maxMemoryCacheSize: 1024 * 1024 });
    const ctx = { kind: 'APP_PAGE', isRoutePPREnabled: false, isFallback: false };
    const global = globalThis as unknown as Record<symbol, unknown>;
    const slot = Symbol.for('@next/cache-handlers');
    const before = global[slot];
    try {
      registerPageCache({ memoryOnly: (key) => key.startsWith('/storefront-cache/') });
      expect(await onDisk.get('/storefront-cache/never-rendered', ctx)).toBeNull();
      expect(looked).toEqual([]);
      await onDisk.set('/storefront-cache/k2', page('<html><body><script>two()</script></body></html>'), {
        cacheControl: { revalidate: false, expire: undefined },
      });
      expect((await onDisk.get('/storefront-cache/k2', ctx))?.value.headers['content-security-policy']).toContain(sha('two()'));
      // Any other page may have been prerendered at build: it is still looked for on disk.
      expect(await onDisk.get('/prerendered-elsewhere', ctx)).toBeNull();
      expect(looked.length).toBeGreaterThan(0);
    } finally {
      registerPageCache();
      global[slot] = before;
    }
  });

  it('leaves other kinds of entry alone', async () => {
    const data = { kind: 'FETCH', data: { headers: {}, body: 'e30=', status: 200, url: 'http://x' }, revalidate: 60 };
    await handler.set('fetch-key', data, { fetchCache: true });
    expect(JSON.stringify(data)).not.toContain('content-security-policy');
  });
});

describe('registerPageCache', () => {
  const slot = Symbol.for('@next/cache-handlers');

  /** The way Next's server builds one for every request, with no `cacheHandler` configured. */
  const nextsIncrementalCache = () =>
    new IncrementalCache({
      fs: undefined as never,
      dev: false,
      flushToDisk: true,
      minimalMode: false,
      serverDistDir: '/nonexistent',
      requestHeaders: {},
      maxMemoryCacheSize: 1024 * 1024,
      previewProps: { previewModeId: 'p', previewModeSigningKey: 's', previewModeEncryptionKey: 'e' },
      prerenderManifest: {
        version: 4,
        routes: {},
        dynamicRoutes: {},
        notFoundRoutes: [],
        preview: { previewModeId: 'p', previewModeSigningKey: 's', previewModeEncryptionKey: 'e' },
      },
      fetchCacheKeyPrefix: '',
      allowedRevalidateHeaderKeys: [],
      CurCacheHandler: undefined,
    } as never);

  it('is how the page cache is set up: next.config names no cacheHandler, which Next would import on every request', async () => {
    const configFile = '../next.config.mjs'; // plain JavaScript, untyped
    const { default: configFor } = (await import(configFile)) as { default: (phase: string) => Record<string, unknown> };
    const nextConfig = configFor('phase-production-server');
    expect(nextConfig).toHaveProperty('cacheMaxMemorySize');
    expect(nextConfig).not.toHaveProperty('cacheHandler');
  });
  const global = globalThis as unknown as Record<symbol, Record<string, unknown> | undefined>;

  it('makes it the page cache of every IncrementalCache Next creates, keeping handlers already registered', () => {
    const before = global[slot];
    const useCacheHandler = {};
    global[slot] = { DefaultCache: useCacheHandler };
    try {
      registerPageCache();
      expect(global[slot]).toEqual({ DefaultCache: useCacheHandler, FetchCache: PageCacheHandler });
      const cache = nextsIncrementalCache();
      expect(cache.cacheHandler).toBeInstanceOf(PageCacheHandler);
      // The handler itself never writes pages to disk, whatever Next asks for.
      expect((cache.cacheHandler as unknown as { flushToDisk: boolean }).flushToDisk).toBe(false);
    } finally {
      global[slot] = before;
    }
  });

  it('spares Next measuring a page it never checks against a limit, and keeps the page whole', async () => {
    const before = global[slot];
    const global_ = globalThis as unknown as { __incrementalCache?: unknown };
    const current = global_.__incrementalCache;
    const stringify = vi.spyOn(JSON, 'stringify');
    const toJSON = vi.spyOn(Buffer.prototype, 'toJSON');
    try {
      registerPageCache({ memoryOnly: () => true });
      const cache = nextsIncrementalCache();
      // As route-module.js does with each one it makes; the handler's first read finds it there.
      global_.__incrementalCache = cache;
      const pageCtx = {
        kind: 'APP_PAGE',
        isRoutePPREnabled: false,
        isFallback: false,
        route: { kind: 'APP_PAGE', sourceRoute: '/p/[handle]/page' },
      };
      expect(await cache.get('/p/x', pageCtx as never)).toBeNull();

      const rscData = Buffer.from('0:["$","p",null,{"children":"x"}]\n'.repeat(200));
      const page = {
        kind: 'APP_PAGE',
        html: '<html><body><p>x</p></body></html>',
        rscData,
        headers: {},
        status: 200,
        postponed: undefined,
        segmentData: undefined,
      };
      await cache.set('/p/x', page as never, { ...pageCtx, cacheControl: { revalidate: false, expire: undefined } } as never);
      // Next measured it (its call is still made) without spelling out the payload.
      expect(stringify.mock.calls.some(([value]) => value === page)).toBe(true);
      expect(toJSON).not.toHaveBeenCalled();
      expect(Object.hasOwn(page, 'toJSON')).toBe(false);
      const kept = await cache.get('/p/x', pageCtx as never);
      expect(kept?.value).toMatchObject({ kind: 'APP_PAGE', html: page.html, status: 200 });
      expect((kept?.value as unknown as { rscData: Buffer }).rscData.equals(rscData)).toBe(true);
      expect(JSON.stringify(page)).toContain('"rscData":{"type":"Buffer"');

      // A fetch entry, whose size Next does check, is measured as it always was.
      const fetched = { kind: 'FETCH', data: { headers: {}, body: 'x'.repeat(10), status: 200, url: 'https://x/' }, revalidate: 60 };
      await cache.set('f', fetched as never, { fetchCache: true, fetchUrl: 'https://x/', tags: [] } as never);
      const measured = stringify.mock.calls.findIndex(([value]) => value === fetched);
      expect(stringify.mock.results[measured]?.value).toContain('"body":"xxxxxxxxxx"');
    } finally {
      stringify.mockRestore();
      toJSON.mockRestore();
      global_.__incrementalCache = current;
      global[slot] = before;
    }
  });
});
