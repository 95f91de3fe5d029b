import { describe, expect, it } from 'vitest';
import { BodyTooLarge, readBodyCapped, readTextCapped } from '@/lib/http/body-limit';
import { readJsonBody } from '@/lib/api/body';
import { DomainError } from '@/lib/platform/errors';
import { malformedPathRefusalFor, originTarget, PAGE_BODY_LIMIT, pageBodyRefusal, unservedMethodAnswer } from '@/lib/server/server-guard';

/** A body that never ends (as a chunked upload need not), counting what was pulled from it. */
function endless(headers: Record<string, string> = {}, chunkBytes = 64 * 1024) {
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        seen.pulled += 1;
        controller.enqueue(new Uint8Array(chunkBytes).fill(0x61));
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    // nothing is pulled before someone reads
    { highWaterMark: 0 },
  );
  return { seen, request: new Request('http://localhost/', { method: 'POST', body, headers, duplex: 'half' } as RequestInit) };
}

describe('readBodyCapped', () => {
  it('stops at the limit of a body with no end, and cancels it', async () => {
    const { seen, request } = endless();
    await expect(readBodyCapped(request, 256 * 1024)).rejects.toBeInstanceOf(BodyTooLarge);
    // 256 KiB is four chunks: the fifth passes the limit.
    expect(seen.pulled).toBeLessThanOrEqual(5);
    expect(seen.cancelled).toBe(true);
  });

  it('refuses a declared length past the limit without reading', async () => {
    const { seen, request } = endless({ 'Content-Length': String(10 * 1024 * 1024) });
    await expect(readBodyCapped(request, 1024)).rejects.toBeInstanceOf(BodyTooLarge);
    expect(seen.pulled).toBe(0);
  });

  it('answers a body within the limit whole, in order, and no body as empty', async () => {
    const parts = ['{"a":', '"bé"', '}'].map((p) => new TextEncoder().encode(p));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const p of parts) controller.enqueue(p);
        controller.close();
      },
    });
    const req = new Request('http://localhost/', { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(await readTextCapped(req, 100)).toBe('{"a":"bé"}');
    expect((await readBodyCapped(new Request('http://localhost/'), 10)).byteLength).toBe(0);
  });

  it('answers null for bytes that are not UTF-8', async () => {
    const req = new Request('http://localhost/', { method: 'POST', body: new Uint8Array([0xff, 0xfe, 0x41]) });
    expect(await readTextCapped(req, 100)).toBeNull();
  });
});

describe('pageBodyRefusal', () => {
  it('lets through reads, small declared bodies and the paths that cap their own reads', () => {
    expect(pageBodyRefusal('GET', '/', undefined)).toBeNull();
    expect(pageBodyRefusal('POST', '/cart', '120')).toBeNull();
    expect(pageBodyRefusal('POST', '/cart', String(PAGE_BODY_LIMIT))).toBeNull();
    expect(pageBodyRefusal('POST', '/site/v1/commerce/checkout-sessions', undefined)).toBeNull();
    expect(pageBodyRefusal('POST', '/shop-api/events', undefined)).toBeNull();
  });

  it('refuses a page body without a length (411) or past the limit (413)', () => {
    expect(pageBodyRefusal('POST', '/', undefined)?.status).toBe(411);
    expect(pageBodyRefusal('POST', '/products/linen-tote-bag', String(PAGE_BODY_LIMIT + 1))?.status).toBe(413);
    expect(pageBodyRefusal('PUT', '/cart', 'abc')?.status).toBe(411);
    // a path that only looks like one of the capped ones
    expect(pageBodyRefusal('POST', '/shop-apix', undefined)?.status).toBe(411);
  });
});

describe('malformedPathRefusalFor (a body sent where the proxy does not run)', () => {
  it('answers a malformed API path 404 problem+json, with the request id it was sent', () => {
    const answer = malformedPathRefusalFor('/site/v1/commerce/checkout-sessions/%E0%A4%A', 'req_bad_path');
    expect(answer?.status).toBe(404);
    expect(answer?.headers).toMatchObject({ 'Content-Type': 'application/problem+json', 'X-Request-Id': 'req_bad_path' });
    expect(JSON.parse(answer!.body)).toMatchObject({ code: 'not_found', status: 404, requestId: 'req_bad_path' });
  });

  it('answers a malformed path of the shop’s endpoints as the proxy does, and leaves the rest alone', () => {
    expect(malformedPathRefusalFor('/shop-api/cart/%ZZ')).toMatchObject({ status: 404, body: 'Not found' });
    expect(malformedPathRefusalFor('/site/v1/commerce/checkout-session%73')).toBeNull();
    expect(malformedPathRefusalFor('/site/v1/commerce/checkout-sessions')).toBeNull();
    // pages are the page limit's and the proxy's (it runs for them: their bodies are small)
    expect(malformedPathRefusalFor('/cart/%ZZ')).toBeNull();
  });
});

describe('unservedMethodAnswer', () => {
  it('gives API paths the contract’s Allow, as problem+json naming the method', async () => {
    for (const method of ['TRACE', 'PROPFIND', 'PURGE']) {
      const answer = await unservedMethodAnswer(method, '/site/v1/commerce/checkout-sessions/cs_1', undefined);
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('GET, HEAD, PATCH');
      expect(JSON.parse(answer.body)).toMatchObject({
        code: 'method_not_allowed',
        status: 405,
        detail: `${method} is not served here. Allowed: GET, HEAD, PATCH.`,
      });
    }
    expect((await unservedMethodAnswer('LOCK', '/site/v1/commerce/nothing', undefined)).status).toBe(404);
  });

  it("gives the shop's endpoints a problem with the same code", async () => {
    const answer = await unservedMethodAnswer('PROPFIND', '/shop-api/events', undefined);
    expect(answer).toMatchObject({ status: 405, headers: { Allow: 'GET, HEAD, POST', 'Content-Type': 'application/problem+json' } });
    expect(JSON.parse(answer.body)).toMatchObject({ status: 405, code: 'method_not_allowed', detail: 'PROPFIND is not served here.' });
  });

  it('gives pages a plain page that names the method', async () => {
    const answer = await unservedMethodAnswer('MKCOL', '/products/fjord-ceramic-mug', undefined);
    expect(answer).toMatchObject({ status: 405, headers: { Allow: 'GET, HEAD, POST', 'Content-Type': 'text/html; charset=utf-8' } });
    expect(answer.body).toContain('does not answer MKCOL.');
  });
});

describe('originTarget (a request target that is no path)', () => {
  it('answers OPTIONS * with every method some path serves, and * with any other method 400', () => {
    const options = originTarget('OPTIONS', '*');
    expect(options).toMatchObject({ status: 204, body: '' });
    expect('headers' in options && options.headers.Allow).toBe('GET, HEAD, POST, PATCH, OPTIONS');
    for (const method of ['GET', 'POST', 'HEAD']) expect(originTarget(method, '*')).toMatchObject({ status: 400 });
  });

  it('serves the absolute form as its path, under its own host', () => {
    expect(originTarget('GET', 'http://shop.example/site/v1/site?x=1')).toEqual({ path: '/site/v1/site?x=1', host: 'shop.example' });
    expect(originTarget('POST', 'HTTPS://shop.example:8443/cart')).toEqual({ path: '/cart', host: 'shop.example:8443' });
    expect(originTarget('GET', 'http://shop.example')).toEqual({ path: '/', host: 'shop.example' });
  });

  it('refuses anything else with a 400', () => {
    for (const target of ['', 'site/v1/site', 'ftp://shop.example/x', 'http://', 'shop.example:443']) {
      expect(originTarget('GET', target), target).toMatchObject({ status: 400 });
    }
  });
});

describe('readJsonBody', () => {
  const post = (body: BodyInit, type = 'application/json') =>
    new Request('http://x/site/v1/commerce/checkout-sessions', {
      method: 'POST',
      headers: { 'Content-Type': type },
      body,
      duplex: 'half',
    } as RequestInit);

  it('judges the media type before the bytes: 415 for text/plain even when they are not UTF-8', async () => {
    const notUtf8 = new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d]);
    await expect(readJsonBody(post(notUtf8, 'text/plain'))).rejects.toMatchObject({ code: 'unsupported_media_type' });
    await expect(readJsonBody(post(notUtf8))).rejects.toMatchObject({ code: 'invalid_json' });
  });

  it('answers a body whose sender hung up halfway as one that ended early, not as our fault', async () => {
    const cut = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"lines":['));
        controller.error(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      },
    });
    const error = await readJsonBody(post(cut)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'invalid_json', detail: 'The body ended before it was complete.' });
  });
});
