import { createServer, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RenderGate } from '@/lib/server/render-gate';
import { isRenderedPage, shopperOf } from '@/lib/server/server-guard';

/**
 * A real HTTP server whose "render" is held open until the test ends it, behind a gate of
 * 2 with a line of 2: the tests watch who starts, in which order, and who is refused.
 */
function gatedServer(perShopper?: number) {
  const gate = new RenderGate(2, 2, perShopper);
  const started: string[] = [];
  const open = new Map<string, ServerResponse>();
  const server: Server = createServer((req, res) => {
    const name = req.url!.slice(1);
    // The shopper is the name's first letter here (the server guard uses the address).
    const admitted = gate.admit(
      req,
      res,
      () => {
        started.push(name);
        open.set(name, res);
      },
      perShopper === undefined ? null : name[0]!,
      () => {
        res.writeHead(503, { 'Retry-After': '2' });
        res.end();
      },
    );
    if (!admitted) {
      res.writeHead(503, { 'Retry-After': '2' });
      res.end();
    }
  });
  return { gate, started, open, server };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A GET that resolves with its status, and can be abandoned (its socket closed) first. */
function get(port: number, name: string) {
  const req = httpRequest({ host: '127.0.0.1', port, path: `/${name}`, agent: false });
  const status = new Promise<number | 'abandoned'>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', () => resolve('abandoned'));
  });
  req.end();
  return { status, abandon: () => req.destroy() };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

describe('RenderGate', () => {
  it('renders at most its bound at once, lines up the next ones in order, and refuses past a full line', async () => {
    const { gate, started, open, server } = gatedServer();
    servers.push(server);
    const port = await listen(server);
    const a = get(port, 'a');
    const b = get(port, 'b');
    await until(() => started.length === 2);
    const c = get(port, 'c');
    await until(() => gate.waiting === 1);
    const d = get(port, 'd');
    await until(() => gate.waiting === 2);
    const e = get(port, 'e');
    expect(await e.status).toBe(503);
    expect(started).toEqual(['a', 'b']);

    open.get('b')!.end('done');
    expect(await b.status).toBe(200);
    await until(() => started.length === 3);
    expect(started).toEqual(['a', 'b', 'c']);
    expect(gate.rendering).toBe(2);

    for (const name of ['a', 'c']) open.get(name)!.end();
    await until(() => started.length === 4);
    open.get('d')!.end();
    expect(await Promise.all([a.status, c.status, d.status])).toEqual([200, 200, 200]);
    await until(() => gate.rendering === 0);
    expect(gate.waiting).toBe(0);
  });

  it('drops a request whose client hung up while it waited, unrendered, and frees the slot of one that hung up mid-render', async () => {
    const { gate, started, open, server } = gatedServer();
    servers.push(server);
    const port = await listen(server);
    const a = get(port, 'a');
    get(port, 'b');
    await until(() => started.length === 2);
    const gone = get(port, 'gone');
    await until(() => gate.waiting === 1);
    const later = get(port, 'later');
    await until(() => gate.waiting === 2);
    gone.abandon();
    expect(await gone.status).toBe('abandoned');

    // a render whose client hangs up gives its slot back without being answered
    a.abandon();
    await until(() => started.includes('later'));
    expect(started).toEqual(['a', 'b', 'later']);
    for (const name of ['b', 'later']) open.get(name)!.end();
    expect(await later.status).toBe(200);
    await until(() => gate.rendering === 0);
  });
});

describe('RenderGate, per shopper', () => {
  it('gives one shopper one place at a time: their other pages wait behind their own, another shopper renders beside them', async () => {
    const { gate, started, open, server } = gatedServer(1);
    servers.push(server);
    const port = await listen(server);
    // Shopper x (a visitor looping on an expensive search) opens three connections at once.
    const x1 = get(port, 'x1');
    await until(() => started.length === 1);
    const x2 = get(port, 'x2');
    await until(() => gate.waitingOf('x') === 1);
    const x3 = get(port, 'x3');
    await until(() => gate.waitingOf('x') === 2);
    const x4 = get(port, 'x4');
    // x's line holds 2 (maxWaiting): the fourth is refused at once.
    expect(await x4.status).toBe(503);
    expect(gate.rendering).toBe(1);
    // Shopper y renders at once, beside x's one page, though the gate has room for two.
    const y1 = get(port, 'y1');
    await until(() => started.includes('y1'));
    expect(started).toEqual(['x1', 'y1']);
    // When x's page ends, x's next one starts, in order.
    open.get('x1')!.end();
    await until(() => started.includes('x2'));
    open.get('y1')!.end();
    open.get('x2')!.end();
    await until(() => started.includes('x3'));
    open.get('x3')!.end();
    expect(await Promise.all([x1.status, y1.status, x2.status, x3.status])).toEqual([200, 200, 200, 200]);
    await until(() => gate.rendering === 0);
  });

  it("names the shopper as the storefront does: the address, IPv6 by /64, behind trusted proxies the outermost one's", () => {
    const req = (remoteAddress: string, xff?: string) =>
      ({ socket: { remoteAddress }, headers: xff ? { 'x-forwarded-for': xff } : {} }) as never;
    expect(shopperOf(req('203.0.113.7'), 0)).toBe('203.0.113.7');
    expect(shopperOf(req('::ffff:203.0.113.7'), 0)).toBe('203.0.113.7');
    expect(shopperOf(req('2001:db8:1:2:aaaa::1'), 0)).toBe(shopperOf(req('2001:db8:1:2:bbbb::9'), 0));
    expect(shopperOf(req('2001:db8:1:2::1'), 0)).not.toBe(shopperOf(req('2001:db8:1:3::1'), 0));
    expect(shopperOf(req('10.0.0.1', '198.51.100.9, 203.0.113.7'), 1)).toBe('203.0.113.7');
    expect(shopperOf(req('10.0.0.1', 'forged'), 0)).toBe('10.0.0.1');
  });
});

describe('isRenderedPage', () => {
  it('holds the shop pages, and neither their files, the API nor the framework', () => {
    for (const page of [
      '/',
      '/products',
      '/products/fjord-ceramic-mug',
      '/products/mug?x=1',
      '/collections/kitchen',
      '/cart',
      '/checkout/cs_1',
      '/search?q=mug',
    ]) {
      expect(isRenderedPage(page), page).toBe(true);
    }
    for (const other of [
      '/products/fjord-ceramic-mug.svg',
      '/site/v1/commerce/products/mug',
      '/shop-api/search',
      '/_next/static/chunks/a.js',
      '/favicon.ico',
      '/robots.txt',
      '/docs',
    ]) {
      expect(isRenderedPage(other), other).toBe(false);
    }
  });
});
