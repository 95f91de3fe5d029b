import { defineOperation } from '../operation';
import {
  AddressSuggestions,
  AddressSuggestionsQuery,
  ChangeCountryBody,
  CheckoutSession,
  CheckoutSessionParams,
  CountryChangeQuote,
  CreateCheckoutSessionBody,
  DeliveryOptions,
  DeliveryOptionsBody,
  PaymentPreparation,
  PreparePaymentBody,
  UpdateCheckoutSessionBody,
} from '../checkout';

const STATE_RULES =
  'Only `open` sessions change: a change to a `payment_pending` or `completed` session is 409 `session_not_open`, to an expired one ' +
  '410 `session_expired` (a session past `expiresAt` is expired; that is recorded on the first read or write after it).';

export const createCheckoutSession = defineOperation({
  operationId: 'createCheckoutSession',
  method: 'post',
  path: '/commerce/checkout-sessions',
  scope: 'core',
  tag: 'Checkout',
  summary: 'Start a checkout session from cart lines and bundles',
  description:
    'Lines of the same variant are merged (the merged quantity must stay ≤ 99). Prices, currency and totals come from the catalog for ' +
    "the session's market; a price in the body is an unknown field. Every line naming an unknown, unpublished or not-sold-in-market " +
    'variant is listed in one 422 `unknown_variant`; every line that cannot be sold in that quantity now in one 409 ' +
    '`insufficient_stock` (pointers `/lines/<index>/variantId`, indexes as sent). ' +
    "`bundles` (optional, up to 20, `{ bundleId, quantity }`) buys a product bundle at its price in the session's market: each bundle " +
    'becomes one session line per item (title "Product — Variant (Bundle title)"), its price × quantity allocated over the items in ' +
    "proportion to their own prices × quantities, in whole minor units that add up exactly to the bundle price (a line's `unitPrice` " +
    'is its share per unit, rounded down in the rare case the share does not divide by its quantity; `total` is what is charged). ' +
    "A bundle that is unknown, another Site's, not priced in the market, or has an item that cannot be bought there is reported like " +
    'an unknown variant: 422 `unknown_variant` with pointer `/bundles/<index>/bundleId`; a bundle an item of which is not in stock for ' +
    'the quantity: 409 `insufficient_stock` at the same pointer. Stock is judged on all a session asks of a variant, plain and bundled. ' +
    '`lines` may be empty when `bundles` is not; at most 100 session lines in all (else 422 `validation_failed` at `/bundles`). ' +
    'change-country re-allocates each bundle in the new market, or removes its lines (a warning each) if it is not sold there. ' +
    'The session expires after 24 h by default. ' +
    'Tax-inclusive markets: `tax` is the tax contained in the total; tax-exclusive markets: `tax` is added to the total.',
  body: CreateCheckoutSessionBody,
  success: {
    status: 201,
    description: 'The new session; `Location` is its URL.',
    schema: CheckoutSession,
    headers: ['Location', 'ETag', 'Content-Language', 'Cache-Control', 'Idempotent-Replayed'],
  },
  errors: [
    'unknown_variant',
    'insufficient_stock',
    'unknown_market',
    'unsupported_locale',
    'idempotency_key_reused',
    'idempotency_key_in_use',
  ],
});

export const getCheckoutSession = defineOperation({
  operationId: 'getCheckoutSession',
  method: 'get',
  path: '/commerce/checkout-sessions/{id}',
  scope: 'extended',
  tag: 'Merchant checkout',
  summary: 'A checkout session',
  description:
    'The ETag is strong and changes with every change to the session (send it as If-Match on PATCH). An expired session reads as `expired`.',
  params: CheckoutSessionParams,
  success: { status: 200, description: 'The session.', schema: CheckoutSession, headers: ['ETag', 'Cache-Control', 'Content-Language'] },
  errors: ['not_found'],
});

export const updateCheckoutSession = defineOperation({
  operationId: 'updateCheckoutSession',
  method: 'patch',
  path: '/commerce/checkout-sessions/{id}',
  scope: 'extended',
  tag: 'Merchant checkout',
  summary: 'Set email, phone and addresses',
  description:
    'Merge semantics: absent fields stay, `null` clears. Honours `If-Match` (412 `precondition_failed` when the session changed since); ' +
    'without it the change applies to the current version. A body that changes nothing (empty, or the values the session already holds) ' +
    "makes no new version: the ETag stays. Addresses must be in a country of the session's market (422 " +
    '`country_not_in_market`; use change-country to move). When the shipping country changes, a selected pickup point is cleared. ' +
    STATE_RULES,
  params: CheckoutSessionParams,
  body: UpdateCheckoutSessionBody,
  success: {
    status: 200,
    description: 'The session with its ETag (a new one when anything changed).',
    schema: CheckoutSession,
    headers: ['ETag', 'Cache-Control', 'Content-Language'],
  },
  errors: ['not_found', 'country_not_in_market', 'precondition_failed', 'session_not_open', 'session_expired'],
});

export const suggestCheckoutAddresses = defineOperation({
  operationId: 'suggestCheckoutAddresses',
  method: 'get',
  path: '/commerce/checkout-sessions/{id}/address-suggestions',
  scope: 'extended',
  tag: 'Merchant checkout',
  summary: 'Address suggestions as the shopper types',
  description:
    "Up to 10 addresses in the session's country (the shipping address's, else the market's first country) whose street, postal code " +
    'or city starts with `q`. From a built-in address book that a provider can replace. The query is never logged or stored.',
  params: CheckoutSessionParams,
  query: AddressSuggestionsQuery,
  success: { status: 200, description: 'Suggestions, best first.', schema: AddressSuggestions, headers: ['ETag', 'Cache-Control'] },
  errors: ['not_found', 'validation_failed'],
});

export const changeCheckoutCountry = defineOperation({
  operationId: 'changeCheckoutCountry',
  method: 'post',
  path: '/commerce/checkout-sessions/{id}/change-country',
  scope: 'extended',
  tag: 'Merchant checkout',
  summary: 'Move the session to the market serving a country',
  description:
    "Re-prices every line from the new market's prices (no currency conversion); a line not sold there, or not in stock, is removed " +
    "with a warning. A bundle's lines are re-allocated from the bundle's price in the new market, or all removed with a warning each " +
    'when the bundle or one of its items is not sold (or not in stock) there. Clears the delivery option, the shipping address unless it is in that country, and the billing address unless it ' +
    "is in the new market. The locale stays if the new market offers it, else becomes one of the new market's in the same language (`en-SE` → `en-DE`), " +
    "else the market's default. " +
    STATE_RULES,
  params: CheckoutSessionParams,
  body: ChangeCountryBody,
  success: {
    status: 200,
    description: 'The session and a quote: old total (old currency), new total, warnings.',
    schema: CountryChangeQuote,
    headers: ['ETag', 'Content-Language', 'Cache-Control', 'Idempotent-Replayed'],
  },
  errors: ['not_found', 'unsupported_country', 'session_not_open', 'session_expired', 'idempotency_key_reused', 'idempotency_key_in_use'],
});

export const listDeliveryOptions = defineOperation({
  operationId: 'listDeliveryOptions',
  method: 'post',
  path: '/commerce/checkout-sessions/{id}/delivery-options',
  scope: 'extended',
  tag: 'Merchant checkout',
  summary: 'Delivery and pickup options; select one',
  description:
    "Home delivery (every speed of the session's market) and up to 5 pickup points of the session's country nearest to `postalCode` " +
    "(default: the shipping address's; with neither, no pickup points are listed). `select` stores an option (any pickup point of the " +
    'country may be selected by id, listed or not) and re-totals: total = subtotal + shipping (+ tax in tax-exclusive markets). ' +
    'Listing works in every state; selecting needs an open session. ' +
    STATE_RULES,
  params: CheckoutSessionParams,
  body: DeliveryOptionsBody,
  success: {
    status: 200,
    description: 'The options, the selected option id and the session.',
    schema: DeliveryOptions,
    headers: ['ETag', 'Content-Language', 'Cache-Control', 'Idempotent-Replayed'],
  },
  errors: [
    'not_found',
    'unknown_delivery_option',
    'session_not_open',
    'session_expired',
    'idempotency_key_reused',
    'idempotency_key_in_use',
  ],
});

export const prepareCheckoutPayment = defineOperation({
  operationId: 'prepareCheckoutPayment',
  method: 'post',
  path: '/commerce/checkout-sessions/{id}/prepare-payment',
  scope: 'extended',
  tag: 'Merchant checkout',
  summary: 'Prepare the payment (open → payment_pending)',
  description:
    'Needs email, shipping address, a delivery option and at least one line, else 409 `session_incomplete` with `missing: [...]` naming ' +
    'them. Prepares a payment with the payment provider adapter (built in: `sandbox`, which moves no money), stores it on the session ' +
    'and moves it to `payment_pending`; calling again answers the same payment. The session then no longer changes; it becomes ' +
    '`completed` when the provider confirms the payment, or `expired` at `expiresAt`.',
  params: CheckoutSessionParams,
  body: PreparePaymentBody,
  success: {
    status: 200,
    description: 'The session and the payment to complete at the provider.',
    schema: PaymentPreparation,
    headers: ['ETag', 'Content-Language', 'Cache-Control', 'Idempotent-Replayed'],
  },
  errors: ['not_found', 'session_incomplete', 'session_not_open', 'session_expired', 'idempotency_key_reused', 'idempotency_key_in_use'],
});

export const checkoutOperations = [
  createCheckoutSession,
  getCheckoutSession,
  updateCheckoutSession,
  suggestCheckoutAddresses,
  changeCheckoutCountry,
  listDeliveryOptions,
  prepareCheckoutPayment,
];
