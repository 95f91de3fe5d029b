/**
 * A front end's server code, written as a front-end developer would: a client generated from
 * the published OpenAPI document (openapi-typescript's `paths`, next to this file when the
 * test runs) with openapi-fetch, through a whole purchase. It is type-checked under strict
 * TypeScript and run against the server by e2e/api/generated-client.spec.ts.
 *
 *   node --import tsx flow.ts <baseURL> <extended credential>
 */
import createClient from 'openapi-fetch';
import type { paths } from './schema';

const [baseUrl, credential] = process.argv.slice(2);
if (!baseUrl || !credential) throw new Error('usage: flow.ts <baseURL> <credential>');

const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${credential}` } });

function must<T>(result: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (result.data === undefined) throw new Error(`${what}: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

const site = must(await api.GET('/site/v1/site'), 'site');
const market = site.defaultMarket;

const list = must(await api.GET('/site/v1/commerce/products', { params: { query: { market, limit: 10 } } }), 'products');
const first = list.data[0];
if (!first) throw new Error('the catalog is empty');

const product = must(
  await api.GET('/site/v1/commerce/products/{handle}', { params: { path: { handle: 'fjord-ceramic-mug' }, query: { market } } }),
  'product',
);
const variantIds = product.variants.map((v) => v.id);

// variantIds is an array in the document (style form, explode false): no joining by hand.
const availability = must(await api.GET('/site/v1/commerce/availability', { params: { query: { variantIds } } }), 'availability');
const buyable = availability.data.find((a) => a.purchasable);
if (!buyable) throw new Error('nothing purchasable');

const created = must(
  await api.POST('/site/v1/commerce/checkout-sessions', {
    params: { header: { 'Idempotency-Key': `flow-${Date.now()}` } },
    body: { lines: [{ variantId: buyable.variantId, quantity: 1 }], market },
  }),
  'create session',
);
const id = created.id;

const read = await api.GET('/site/v1/commerce/checkout-sessions/{id}', { params: { path: { id } } });
const etag = read.response.headers.get('etag');
const details = must(
  await api.PATCH('/site/v1/commerce/checkout-sessions/{id}', {
    params: { path: { id }, header: etag ? { 'If-Match': etag } : {} },
    body: {
      email: 'kim@bücher.de',
      shippingAddress: {
        firstName: 'Kim',
        lastName: 'Berg',
        line1: 'Drottninggatan 12',
        postalCode: '11151',
        city: 'Stockholm',
        country: 'SE',
      },
    },
  }),
  'details',
);

const suggestions = must(
  await api.GET('/site/v1/commerce/checkout-sessions/{id}/address-suggestions', { params: { path: { id }, query: { q: 'Dro' } } }),
  'suggestions',
);

// Delivery options without a body: the document says the body is optional.
const options = must(
  await api.POST('/site/v1/commerce/checkout-sessions/{id}/delivery-options', { params: { path: { id } } }),
  'delivery options',
);
const home = options.options.find((o) => o.kind === 'delivery');
if (!home) throw new Error('no home delivery');
const selected = must(
  await api.POST('/site/v1/commerce/checkout-sessions/{id}/delivery-options', { params: { path: { id } }, body: { select: home.id } }),
  'select delivery',
);

const prepared = must(await api.POST('/site/v1/commerce/checkout-sessions/{id}/prepare-payment', { params: { path: { id } } }), 'payment');

const total: string = prepared.payment.amount.amount;
console.log(
  JSON.stringify({
    site: site.handle,
    products: list.data.length,
    product: product.handle,
    session: id,
    email: details.email,
    suggestions: suggestions.data.length,
    delivery: selected.selected,
    status: prepared.session.status,
    total,
  }),
);
