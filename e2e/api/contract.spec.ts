import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/contract';
import { CheckoutSession } from '@/lib/contract/checkout';
import { auth, creds, get, post, V1 } from '../support/api';
import { consent, variantIds } from '../support/signups';

const SESSIONS = '/commerce/checkout-sessions';
const SE_ADDRESS = {
  firstName: 'Kim',
  lastName: 'Berg',
  line1: 'Drottninggatan 12',
  postalCode: '11151',
  city: 'Stockholm',
  country: 'SE',
};

async function openSession(request: APIRequestContext) {
  const [variant] = await variantIds(request, 'fjord-ceramic-mug');
  const res = await post(request, SESSIONS, { lines: [{ variantId: variant, quantity: 1 }] });
  expect(res.status(), await res.text()).toBe(201);
  return { session: CheckoutSession.parse(await res.json()), etag: res.headers().etag! };
}

test('"Bearer" followed by more than one space is a credential like any other (RFC 9110: 1*SP)', async ({ request }) => {
  const res = await request.get(`${V1}/site`, { headers: { Authorization: `Bearer   ${creds().core}` }, failOnStatusCode: false });
  expect(res.status()).toBe(200);
});

test.describe('one e-mail rule for every e-mail field', () => {
  for (const email of ['kim@bücher.de', 'a#b|c%d@x.pw']) {
    test(`${email} is taken by the newsletter, by checkout creation and by PATCH alike`, async ({ request }) => {
      const newsletter = await post(request, '/newsletter/subscriptions', { email, consent }, creds().core);
      expect(newsletter.status(), await newsletter.text()).toBe(202);

      const [variant] = await variantIds(request, 'fjord-ceramic-mug');
      const created = await post(request, SESSIONS, { lines: [{ variantId: variant, quantity: 1 }], email });
      expect(created.status(), await created.text()).toBe(201);
      const stored = CheckoutSession.parse(await created.json()).email;

      const { session } = await openSession(request);
      const patched = await request.patch(`${V1}${SESSIONS}/${session.id}`, {
        headers: auth(creds().extended, { 'Content-Type': 'application/json' }),
        data: JSON.stringify({ email }),
        failOnStatusCode: false,
      });
      expect(patched.status(), await patched.text()).toBe(200);
      expect(CheckoutSession.parse(await patched.json()).email).toBe(stored);
    });
  }

  test('an address that is not one is refused the same way everywhere', async ({ request }) => {
    const [variant] = await variantIds(request, 'fjord-ceramic-mug');
    for (const res of [
      await post(request, '/newsletter/subscriptions', { email: 'kim@@example.com', consent }, creds().core),
      await post(request, SESSIONS, { lines: [{ variantId: variant, quantity: 1 }], email: 'kim@@example.com' }),
    ]) {
      expect(res.status()).toBe(422);
      expect((await res.json()).errors[0]).toMatchObject({ pointer: '/email', code: 'invalid_format' });
    }
  });
});

test('every answer that carries a session carries its ETag, so writes chain with If-Match without another GET', async ({ request }) => {
  const { session, etag: created } = await openSession(request);
  const url = `${SESSIONS}/${session.id}`;
  const patched = await request.patch(`${V1}${url}`, {
    headers: auth(creds().extended, { 'Content-Type': 'application/json', 'If-Match': created }),
    data: JSON.stringify({ email: 'kim@example.com', shippingAddress: SE_ADDRESS }),
    failOnStatusCode: false,
  });
  expect(patched.status(), await patched.text()).toBe(200);

  const options = await post(request, `${url}/delivery-options`, undefined);
  expect(options.status(), await options.text()).toBe(200);
  const home = (await options.json()).options.find((o: { kind: string }) => o.kind === 'delivery');
  const selected = await post(request, `${url}/delivery-options`, { select: home.id });
  expect(selected.status()).toBe(200);
  const afterSelect = selected.headers().etag!;
  expect(afterSelect).toMatch(/^"/);
  expect(afterSelect).not.toBe(patched.headers().etag);

  // The ETag from the POST is the session's current one: If-Match with it succeeds.
  const again = await request.patch(`${V1}${url}`, {
    headers: auth(creds().extended, { 'Content-Type': 'application/json', 'If-Match': afterSelect }),
    data: JSON.stringify({ phone: '+46701234567' }),
    failOnStatusCode: false,
  });
  expect(again.status(), await again.text()).toBe(200);

  const moved = await post(request, `${url}/change-country`, { country: 'SE' });
  expect(moved.status(), await moved.text()).toBe(200);
  expect(moved.headers().etag).toBe((await get(request, url, creds().extended)).headers().etag);

  const payment = await post(request, `${url}/prepare-payment`, undefined);
  expect([200, 409]).toContain(payment.status());
  if (payment.status() === 200) expect(payment.headers().etag).toBe((await get(request, url, creds().extended)).headers().etag);
});

test("HEAD is served on a GET operation with the GET's headers and no body", async ({ request }) => {
  const getRes = await get(request, '/commerce/products/fjord-ceramic-mug');
  const head = await request.head(`${V1}/commerce/products/fjord-ceramic-mug`, { headers: auth(creds().core), failOnStatusCode: false });
  expect(head.status()).toBe(200);
  expect(head.headers().etag).toBe(getRes.headers().etag);
  expect((await head.body()).length).toBe(0);
});

test('a variantIds list as long as the document allows is answered, one longer is a problem', async ({ request }) => {
  const ids = await variantIds(request, 'fjord-ceramic-mug');
  const padded = [...ids];
  while (padded.join(',').length < 8100) padded.push(ids[padded.length % ids.length]!);
  const ok = await get(request, `/commerce/availability?variantIds=${padded.join(',')}`);
  expect(ok.status(), await ok.text()).toBe(200);
  const tooLong = await get(request, `/commerce/availability?variantIds=${padded.join(',')},${'x'.repeat(200)}`);
  expect(tooLong.status()).toBe(422);
});

test.describe('every URL in an answer is absolute', () => {
  test('images and the hosted checkout are built from the origin the request came in on', async ({ request, baseURL }) => {
    const product = await (await get(request, '/commerce/products/fjord-ceramic-mug')).json();
    expect(product.images.length).toBeGreaterThan(0);
    for (const image of product.images) expect(image.url).toMatch(new RegExp(`^${baseURL}/`));
    const list = await (await get(request, '/commerce/products?limit=5')).json();
    for (const item of list.data) if (item.featuredImage) expect(item.featuredImage.url).toMatch(new RegExp(`^${baseURL}/`));
    const { session } = await openSession(request);
    expect(session.checkoutUrl).toBe(`${baseURL}/checkout/${session.id}`);
  });

  test('another Host gets links on that origin, from the same cached answer', async ({ request }) => {
    const res = await request.get(`${V1}/commerce/products/fjord-ceramic-mug`, {
      headers: auth(creds().core, { Host: 'shop.example:8443' }),
      failOnStatusCode: false,
    });
    expect(res.status()).toBe(200);
    const product = await res.json();
    expect(product.images[0].url).toMatch(/^http:\/\/shop\.example:8443\/products\//);
    const again = await get(request, '/commerce/products/fjord-ceramic-mug');
    expect((await again.json()).images[0].url).not.toContain('shop.example');
  });

  test('past the few origins a process keeps answers for, every other Host still gets links on its own origin', async ({
    request,
    baseURL,
  }) => {
    // A process keeps answers for its first 4 origins only; these 6 are more than it keeps.
    for (let i = 0; i < 6; i += 1) {
      for (let round = 0; round < 2; round += 1) {
        const res = await request.get(`${V1}/commerce/products/linen-tote-bag`, {
          headers: auth(creds().core, { Host: `h${i}.shop.example` }),
          failOnStatusCode: false,
        });
        expect(res.status()).toBe(200);
        const product = await res.json();
        expect(product.images.length).toBeGreaterThan(0);
        for (const image of product.images) expect(image.url).toMatch(new RegExp(`^http://h${i}\\.shop\\.example/products/`));
      }
    }
    const own = await (await get(request, '/commerce/products/linen-tote-bag')).json();
    expect(own.images.length).toBeGreaterThan(0);
    for (const image of own.images) expect(image.url).toMatch(new RegExp(`^${baseURL}/`));
  });
});

test.describe('over-long requests are answered with a problem, never a bare status', () => {
  test('a request target past 12 KiB is 414 uri_too_long', async ({ request }) => {
    const res = await get(request, `/commerce/availability?variantIds=${'var_x,'.repeat(2200)}`);
    expect(res.status()).toBe(414);
    expect(res.headers()['content-type']).toContain('application/problem+json');
    expect((await res.json()).code).toBe('uri_too_long');
  });

  test('a request line and headers past 16 KiB is 431 with a problem body', async ({ baseURL }) => {
    const { request: send } = await import('node:http');
    const answer = await new Promise<{ status: number; type: string; requestId: unknown; body: string }>((resolve, reject) => {
      const req = send(`${baseURL}/site/v1/site`, { headers: { 'X-Padding': 'x'.repeat(20_000) } }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), requestId: res.headers['x-request-id'], body }),
        );
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(431);
    expect(answer.type).toContain('application/problem+json');
    const problem = JSON.parse(answer.body);
    expect(problem).toMatchObject({ status: 431, code: 'request_header_fields_too_large' });
    // Like every problem: a request id, the same in the body and the header.
    expect(problem.requestId).toMatch(/^req_[0-9a-f]{32}$/);
    expect(answer.requestId).toBe(problem.requestId);
  });
});
