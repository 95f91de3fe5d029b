import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/contract';
import { Product } from '@/lib/contract/catalog';
import { AddressSuggestions, CheckoutSession, CountryChangeQuote, DeliveryOptions, PaymentPreparation } from '@/lib/contract/checkout';
import { auth, creds, expectProblem, get, post, V1 } from '../support/api';

const PATH = '/commerce/checkout-sessions';
const minor = (amount: string) => Number(amount.replace('.', ''));

function patch(request: APIRequestContext, id: string, data: unknown, headers: Record<string, string> = {}, token = creds().extended) {
  return request.patch(`${V1}${PATH}/${id}`, {
    headers: auth(token, { 'Content-Type': 'application/json', ...headers }),
    data: JSON.stringify(data),
    failOnStatusCode: false,
  });
}

/** The variants in the market's English locale, so they are found by their stored (English) titles. */
async function prices(request: APIRequestContext, handle: string, market: string) {
  const res = await get(request, `/commerce/products/${handle}?market=${market}&locale=en-${market.toUpperCase()}`);
  expect(res.status()).toBe(200);
  return Product.parse(await res.json()).variants;
}

/** A fresh open session in SE: two White mugs and a Natural tote. */
async function openSession(request: APIRequestContext) {
  const [mug, tote] = [
    (await prices(request, 'fjord-ceramic-mug', 'se')).find((v) => v.title === 'White')!,
    (await prices(request, 'linen-tote-bag', 'se')).find((v) => v.title === 'Natural')!,
  ];
  const res = await post(request, PATH, {
    lines: [
      { variantId: mug.id, quantity: 2 },
      { variantId: tote.id, quantity: 1 },
    ],
  });
  expect(res.status(), await res.text()).toBe(201);
  return { session: CheckoutSession.parse(await res.json()), mug, tote };
}

const SE_ADDRESS = {
  firstName: 'Kim',
  lastName: 'Berg',
  line1: 'Drottninggatan 12',
  postalCode: '11151',
  city: 'Stockholm',
  country: 'se',
};
const DE_ADDRESS = { firstName: 'Kim', lastName: 'Berg', line1: 'Friedrichstraße 95', postalCode: '10117', city: 'Berlin', country: 'DE' };

test('the merchant checkout walk: create → PATCH → suggestions → change country → delivery → prepare payment', async ({ request }) => {
  const { session: created, mug, tote } = await openSession(request);
  const url = `${PATH}/${created.id}`;

  const early = await expectProblem(await post(request, `${url}/prepare-payment`, {}), 409, 'session_incomplete');
  expect(early.missing).toEqual(['email', 'shippingAddress', 'deliveryOption']);

  const read = await get(request, url, creds().extended);
  const etag1 = read.headers().etag!;
  const patched = await patch(
    request,
    created.id,
    { email: 'kim@example.com', phone: '+46 70-123 45 67', shippingAddress: SE_ADDRESS, billingAddress: null },
    { 'If-Match': etag1 },
  );
  expect(patched.status(), await patched.text()).toBe(200);
  const etag2 = patched.headers().etag!;
  expect(etag2).not.toBe(etag1);
  expect(CheckoutSession.parse(await patched.json())).toMatchObject({
    email: 'kim@example.com',
    phone: '+46701234567',
    billingAddress: null,
    shippingAddress: { ...SE_ADDRESS, postalCode: '111 51', country: 'SE' },
  });
  await expectProblem(await patch(request, created.id, { email: 'late@example.com' }, { 'If-Match': etag1 }), 412, 'precondition_failed');
  expect((await get(request, url, creds().extended)).headers().etag).toBe(etag2);
  // Sending what the session already holds (nothing, or the same values in another spelling)
  // is no new version: the ETag a client holds stays good.
  for (const same of [{}, { email: 'kim@example.com', phone: '+46 70 123 45 67', shippingAddress: SE_ADDRESS, billingAddress: null }]) {
    const again = await patch(request, created.id, same, { 'If-Match': etag2 });
    expect(again.status(), await again.text()).toBe(200);
    expect(again.headers().etag).toBe(etag2);
  }

  const suggestions = await get(request, `${url}/address-suggestions?q=Dro`, creds().extended);
  expect(suggestions.status()).toBe(200);
  const { data } = AddressSuggestions.parse(await suggestions.json());
  expect(data.length).toBeGreaterThan(0);
  expect(data.length).toBeLessThanOrEqual(10);
  expect(data.every((s) => s.address.country === 'SE' && s.address.line1.startsWith('Dro') && s.label.length > 0)).toBe(true);

  const moved = await post(request, `${url}/change-country`, { country: 'DE' });
  expect(moved.status(), await moved.text()).toBe(200);
  const { session: inDe, quote } = CountryChangeQuote.parse(await moved.json());
  const deMug = (await prices(request, 'fjord-ceramic-mug', 'de')).find((v) => v.id === mug.id)!;
  const deTote = (await prices(request, 'linen-tote-bag', 'de')).find((v) => v.id === tote.id)!;
  const deSubtotal = 2 * minor(deMug.price.amount) + minor(deTote.price.amount);
  expect(inDe).toMatchObject({
    market: 'de',
    currency: 'EUR',
    locale: 'de-DE',
    deliveryOption: null,
    shippingAddress: null,
    email: 'kim@example.com',
  });
  expect(inDe.lines.map((l) => [l.variantId, l.unitPrice])).toEqual([
    [mug.id, deMug.price],
    [tote.id, deTote.price],
  ]);
  expect(minor(inDe.totals.total.amount)).toBe(deSubtotal);
  expect(quote).toEqual({ previousTotal: created.totals.total, total: inDe.totals.total, warnings: [] });

  const listed = await post(request, `${url}/delivery-options`, { postalCode: '10117' });
  expect(listed.status(), await listed.text()).toBe(200);
  const options = DeliveryOptions.parse(await listed.json());
  expect(options.selected).toBeNull();
  expect(options.options.filter((o) => o.kind === 'delivery').map((o) => o.id)).toEqual(['ship_de_standard', 'ship_de_express']);
  const pickups = options.options.filter((o) => o.kind === 'pickup');
  expect(pickups.length).toBeGreaterThanOrEqual(3);
  expect(pickups.every((o) => o.pickupPoint?.address.country === 'DE' && o.price.currency === 'EUR')).toBe(true);
  expect(pickups[0]!.pickupPoint!.address.city).toBe('Berlin');

  const selected = DeliveryOptions.parse(await (await post(request, `${url}/delivery-options`, { select: 'ship_de_standard' })).json());
  expect(selected.selected).toBe('ship_de_standard');
  expect(selected.session.totals.shipping).toEqual({ amount: '4.95', currency: 'EUR' });
  expect(minor(selected.session.totals.total.amount)).toBe(deSubtotal + 495);

  const missing = await expectProblem(await post(request, `${url}/prepare-payment`, {}), 409, 'session_incomplete');
  expect(missing.missing).toEqual(['shippingAddress']);
  expect((await patch(request, created.id, { shippingAddress: DE_ADDRESS })).status()).toBe(200);

  const prepared = await post(request, `${url}/prepare-payment`, { method: 'card' });
  expect(prepared.status(), await prepared.text()).toBe(200);
  const payment = PaymentPreparation.parse(await prepared.json());
  expect(payment.session.status).toBe('payment_pending');
  expect(payment.payment).toMatchObject({ provider: 'sandbox', amount: payment.session.totals.total });
  expect(payment.payment.reference).toMatch(/^pay_sandbox_/);
  const again = PaymentPreparation.parse(await (await post(request, `${url}/prepare-payment`, {})).json());
  expect(again.payment).toEqual(payment.payment);

  await expectProblem(await patch(request, created.id, { email: 'after@example.com' }), 409, 'session_not_open');
  await expectProblem(await post(request, `${url}/change-country`, { country: 'SE' }), 409, 'session_not_open');
  await expectProblem(await post(request, `${url}/delivery-options`, { select: 'ship_de_express' }), 409, 'session_not_open');
  expect(CheckoutSession.parse(await (await get(request, url, creds().extended)).json()).status).toBe('payment_pending');
});

test.describe('merchant checkout operations', () => {
  const ops = (id: string) => [
    { name: 'GET session', send: (r: APIRequestContext, t: string) => get(r, `${PATH}/${id}`, t) },
    { name: 'PATCH session', send: (r: APIRequestContext, t: string) => patch(r, id, { email: 'a@example.com' }, {}, t) },
    { name: 'address suggestions', send: (r: APIRequestContext, t: string) => get(r, `${PATH}/${id}/address-suggestions?q=Dro`, t) },
    { name: 'change country', send: (r: APIRequestContext, t: string) => post(r, `${PATH}/${id}/change-country`, { country: 'DE' }, t) },
    { name: 'delivery options', send: (r: APIRequestContext, t: string) => post(r, `${PATH}/${id}/delivery-options`, {}, t) },
    { name: 'prepare payment', send: (r: APIRequestContext, t: string) => post(r, `${PATH}/${id}/prepare-payment`, {}, t) },
  ];

  test('answer 403 insufficient_scope to a core credential, 401 without one', async ({ request }) => {
    const { session } = await openSession(request);
    for (const op of ops(session.id)) {
      await expectProblem(await op.send(request, creds().core), 403, 'insufficient_scope');
      await expectProblem(await op.send(request, creds().revoked), 401, 'unauthorized');
    }
  });

  test("answer 404 to another Site's session and to malformed ids", async ({ request }) => {
    const { session } = await openSession(request);
    for (const id of [session.id, 'cs_doesnotexist000000000', 'not-a-session', '%27%20or%201%3D1']) {
      for (const op of ops(id)) {
        const token = id === session.id ? creds().outletExtended : creds().extended;
        await expectProblem(await op.send(request, token), 404, 'not_found');
      }
    }
    // The session is untouched by all of that.
    expect(CheckoutSession.parse(await (await get(request, `${PATH}/${session.id}`, creds().extended)).json())).toMatchObject({
      status: 'open',
      market: 'se',
      email: null,
    });
  });

  test('answer 405 to methods they do not serve', async ({ request }) => {
    const { session } = await openSession(request);
    const del = await request.delete(`${V1}${PATH}/${session.id}`, { headers: auth(creds().extended), failOnStatusCode: false });
    await expectProblem(del, 405, 'method_not_allowed');
    expect(del.headers().allow).toBe('GET, HEAD, PATCH');
    const getPay = await get(request, `${PATH}/${session.id}/prepare-payment`, creds().extended);
    await expectProblem(getPay, 405, 'method_not_allowed');
    expect(getPay.headers().allow).toBe('POST');
  });

  // `fields`: the stable code of each field error (docs/api.md), never zod's generic `custom`.
  type Case = {
    name: string;
    send: (r: APIRequestContext, id: string) => ReturnType<typeof get>;
    status: number;
    code: string;
    pointers?: string[];
    fields?: string[];
  };
  const cases: Case[] = [
    {
      name: 'PATCH: a postal code that does not fit the country',
      send: (r, id) => patch(r, id, { shippingAddress: { ...SE_ADDRESS, postalCode: '1234' } }),
      status: 422,
      code: 'validation_failed',
      pointers: ['/shippingAddress/postalCode'],
      fields: ['invalid_postal_code'],
    },
    {
      name: 'PATCH: missing and too long address fields',
      send: (r, id) => patch(r, id, { billingAddress: { ...SE_ADDRESS, firstName: ' ', city: 'x'.repeat(101), line1: undefined } }),
      status: 422,
      code: 'validation_failed',
      pointers: ['/billingAddress/firstName', '/billingAddress/city', '/billingAddress/line1'],
    },
    {
      name: 'PATCH: an address in another market',
      send: (r, id) => patch(r, id, { shippingAddress: DE_ADDRESS }),
      status: 422,
      code: 'country_not_in_market',
      pointers: ['/shippingAddress/country'],
    },
    // Validated before the market check: a US address without its state is refused at the field.
    {
      name: 'PATCH: a US address without its state, or with one that is not a state',
      send: (r, id) =>
        patch(r, id, {
          shippingAddress: { ...SE_ADDRESS, country: 'US', postalCode: '10118' },
          billingAddress: { ...SE_ADDRESS, country: 'US', postalCode: '10118', region: 'XX' },
        }),
      status: 422,
      code: 'validation_failed',
      pointers: ['/shippingAddress/region', '/billingAddress/region'],
      fields: ['invalid_region', 'invalid_region'],
    },
    {
      name: 'PATCH: a phone that is not one',
      send: (r, id) => patch(r, id, { phone: '12345' }),
      status: 422,
      code: 'validation_failed',
      pointers: ['/phone'],
      fields: ['invalid_phone'],
    },
    {
      name: 'PATCH: an unknown field',
      send: (r, id) => patch(r, id, { status: 'completed' }),
      status: 422,
      code: 'validation_failed',
      pointers: ['/status'],
    },
    {
      name: 'suggestions: q shorter than 3',
      send: (r, id) => get(r, `${PATH}/${id}/address-suggestions?q=Dr`, creds().extended),
      status: 422,
      code: 'validation_failed',
      pointers: ['#/query/q'],
    },
    {
      name: 'suggestions: no q',
      send: (r, id) => get(r, `${PATH}/${id}/address-suggestions`, creds().extended),
      status: 422,
      code: 'validation_failed',
      pointers: ['#/query/q'],
    },
    {
      name: 'suggestions: q longer than 100',
      send: (r, id) => get(r, `${PATH}/${id}/address-suggestions?q=${'a'.repeat(101)}`, creds().extended),
      status: 422,
      code: 'validation_failed',
      pointers: ['#/query/q'],
    },
    {
      name: 'change country: no market serves it',
      send: (r, id) => post(r, `${PATH}/${id}/change-country`, { country: 'FR' }),
      status: 422,
      code: 'unsupported_country',
      pointers: ['/country'],
    },
    {
      name: 'change country: not a country code',
      send: (r, id) => post(r, `${PATH}/${id}/change-country`, { country: 'Sweden' }),
      status: 422,
      code: 'validation_failed',
      pointers: ['/country'],
    },
    {
      name: 'delivery: an unknown option',
      send: (r, id) => post(r, `${PATH}/${id}/delivery-options`, { select: 'ship_de_standard' }),
      status: 422,
      code: 'unknown_delivery_option',
      pointers: ['/select'],
    },
    {
      name: 'delivery: a postal code of another country',
      send: (r, id) => post(r, `${PATH}/${id}/delivery-options`, { postalCode: '1010' }),
      status: 422,
      code: 'validation_failed',
      pointers: ['/postalCode'],
      fields: ['invalid_postal_code'],
    },
    {
      name: 'prepare payment: an unknown method',
      send: (r, id) => post(r, `${PATH}/${id}/prepare-payment`, { method: 'gold' }),
      status: 422,
      code: 'validation_failed',
      pointers: ['/method'],
    },
  ];
  for (const c of cases) {
    test(`${c.name} → ${c.status} ${c.code}`, async ({ request }) => {
      const { session } = await openSession(request);
      const problem = await expectProblem(await c.send(request, session.id), c.status, c.code);
      if (c.pointers) expect(problem.errors?.map((e) => e.pointer).sort()).toEqual([...c.pointers].sort());
      if (c.fields) expect(problem.errors?.map((e) => e.code)).toEqual(c.fields);
    });
  }

  test('delivery options without postal code or address list home delivery only; selecting a pickup point re-totals', async ({
    request,
  }) => {
    const { session } = await openSession(request);
    const bare = DeliveryOptions.parse(await (await post(request, `${PATH}/${session.id}/delivery-options`, {})).json());
    expect(bare.options.map((o) => o.kind)).toEqual(['delivery', 'delivery']);
    const near = DeliveryOptions.parse(
      await (await post(request, `${PATH}/${session.id}/delivery-options`, { postalCode: '41101' })).json(),
    );
    const pickup = near.options.find((o) => o.kind === 'pickup')!;
    expect(pickup.pickupPoint!.address.city).toBe('Göteborg');
    const chosen = DeliveryOptions.parse(
      await (await post(request, `${PATH}/${session.id}/delivery-options`, { select: pickup.id })).json(),
    );
    expect(chosen.session.deliveryOption).toMatchObject({ id: pickup.id, kind: 'pickup', pickupPointId: pickup.pickupPoint!.id });
    expect(minor(chosen.session.totals.total.amount)).toBe(minor(session.totals.subtotal.amount) + minor(pickup.price.amount));
  });
});
