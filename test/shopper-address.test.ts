import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardServer } from '@/lib/server/server-guard';
import { PEER_HEADER, shopperAddress } from '@/lib/shopper-address';

// A real HTTP server, as `next start` runs one: what a handler sees of each request.
let server: http.Server;
let base = '';
let seen: Headers[] = [];

beforeAll(async () => {
  guardServer({ pageRenderLine: 512 });
  server = http.createServer((req, res) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    seen.push(headers);
    res.end('ok');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

async function received(headers: Record<string, string>): Promise<Headers> {
  seen = [];
  const res = await fetch(base, { headers });
  expect(await res.text()).toBe('ok');
  return seen[0]!;
}

describe('shopperAddress', () => {
  it('is the socket peer by default, whatever X-Forwarded-For and X-Real-IP say', async () => {
    expect(shopperAddress(await received({}), 0)).toBe('127.0.0.1');
    const forged = await received({ 'X-Forwarded-For': '203.0.113.7', 'X-Real-IP': '198.51.100.1' });
    expect(shopperAddress(forged, 0)).toBe('127.0.0.1');
  });

  it('cannot be named by a client that sends the peer header itself', async () => {
    const forged = await received({ [PEER_HEADER]: 'stamp 203.0.113.7 -' });
    expect(forged.get(PEER_HEADER)).not.toContain('203.0.113.7');
    expect(shopperAddress(forged, 0)).toBe('127.0.0.1');
    // A header that did not pass through the installed server (no stamp) names no one.
    expect(shopperAddress(new Headers({ [PEER_HEADER]: 'stamp 203.0.113.7 -' }), 0)).toBeNull();
    expect(shopperAddress(new Headers({ 'x-forwarded-for': '203.0.113.7' }), 1)).toBeNull();
  });

  it('behind N trusted proxies, takes the entry N hops from the right; what the client wrote further left is ignored', async () => {
    // One proxy appended the address it saw (203.0.113.7) to what the client sent.
    const once = await received({ 'X-Forwarded-For': '1.1.1.1, 203.0.113.7' });
    expect(shopperAddress(once, 1)).toBe('203.0.113.7');
    // Two proxies: the outer one saw 203.0.113.7, the inner one saw the outer (10.0.0.2).
    const twice = await received({ 'X-Forwarded-For': '9.9.9.9, 203.0.113.7, 10.0.0.2' });
    expect(shopperAddress(twice, 2)).toBe('203.0.113.7');
    expect(shopperAddress(twice, 1)).toBe('10.0.0.2');
    // Fewer entries than hops (the request did not pass the proxies): the socket's peer.
    expect(shopperAddress(await received({}), 1)).toBe('127.0.0.1');
    expect(shopperAddress(await received({ 'X-Forwarded-For': '203.0.113.7' }), 3)).toBe('127.0.0.1');
    // An entry that is not an IP address names no one.
    expect(shopperAddress(await received({ 'X-Forwarded-For': 'unknown' }), 1)).toBeNull();
    expect(shopperAddress(await received({ 'X-Forwarded-For': '2001:db8::1' }), 1)).toBe('2001:db8::1');
  });
});
