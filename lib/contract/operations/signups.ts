import { defineOperation } from '../operation';
import {
  NewsletterSubscriptionRequest,
  SignupReceipt,
  StockSubscriptionRequest,
  SubscriptionConfirmationRequest,
  SubscriptionState,
  SubscriptionWithdrawalRequest,
} from '../signups';

const signupNotes =
  'Answers 202 with the same body whether the address is new or already signed up, so signups cannot be ' +
  'used to find out who is subscribed. Each call keeps a consent record (purpose, the exact text, its ' +
  'version and sha256, locale, source, server time, credential). A new subscription starts in ' +
  '`pending_confirmation` (double opt-in) and queues exactly one confirmation message in a transactional ' +
  "outbox, in the same database transaction; the server's outbox drain sends it within seconds (or a " +
  "scheduled `npm run outbox -- drain`), with a link to the storefront's confirmation page. " +
  'A repeat creates no second subscription and no second message. `Site-Buyer-IP` is never stored.\n\n' +
  'Send an `Idempotency-Key` header (1–255 printable ASCII) to retry safely: the same key and body within ' +
  '24 h replays the first answer with `Idempotent-Replayed: true`.';

export const createStockSubscription = defineOperation({
  operationId: 'createStockSubscription',
  method: 'post',
  path: '/commerce/stock-subscriptions',
  scope: 'core',
  tag: 'Signups',
  summary: 'Sign an address up for a back-in-stock notification',
  description:
    "For one published variant of this Site, through a notification flow (`flow`, default: the Site's " +
    'default stock flow; it must be an enabled e-mail flow, else `unknown_flow`). Its consent is its own ' +
    'record and never counts as newsletter consent. A missing consent, or one not granted with the JSON ' +
    'literal `true`, is `consent_required` (checked before the other fields).\n\n' +
    signupNotes,
  body: StockSubscriptionRequest,
  success: { status: 202, description: 'Accepted.', schema: SignupReceipt, headers: ['Idempotent-Replayed'] },
  errors: [
    'not_found',
    'consent_required',
    'unknown_flow',
    'unknown_market',
    'unsupported_locale',
    'idempotency_key_reused',
    'idempotency_key_in_use',
  ],
});

export const createNewsletterSubscription = defineOperation({
  operationId: 'createNewsletterSubscription',
  method: 'post',
  path: '/newsletter/subscriptions',
  scope: 'core',
  tag: 'Signups',
  summary: "Sign an address up for the Site's newsletter",
  description:
    'Its consent is its own record and is never taken from a stock-notification signup. A missing consent, ' +
    'or one not granted with the JSON literal `true`, is `consent_required` (checked before the other ' +
    'fields). An address that unsubscribed earlier is asked to confirm again.\n\n' +
    signupNotes,
  body: NewsletterSubscriptionRequest,
  success: { status: 202, description: 'Accepted.', schema: SignupReceipt, headers: ['Idempotent-Replayed'] },
  errors: ['consent_required', 'unknown_market', 'unsupported_locale', 'idempotency_key_reused', 'idempotency_key_in_use'],
});

const tokenNotes =
  'The token comes from a link in a mail the Site sent (the storefront passes it on); it is random, ' +
  'stored only as a hash, and does one thing for one subscription of this Site. An unknown token — or ' +
  'one made for the other operation, or for another Site — is `unknown_token`.';

export const confirmSubscription = defineOperation({
  operationId: 'confirmSubscription',
  method: 'post',
  path: '/subscriptions/confirmations',
  scope: 'core',
  tag: 'Signups',
  summary: 'Confirm a subscription with the token from its confirmation mail (double opt-in)',
  description:
    'Turns a `pending_confirmation` stock or newsletter subscription `active`, and records the confirmation ' +
    'time on its consent. Confirmation links expire 7 days after the mail was sent (`token_expired` while ' +
    'the subscription still waits); confirming again, or after unsubscribing, is harmless and answers the ' +
    'state as it is (`changed: false`). A stock subscription confirmed while its variant is already ' +
    'purchasable is told at once: the answer is then `notified`.\n\n' +
    tokenNotes,
  body: SubscriptionConfirmationRequest,
  success: { status: 200, description: "The subscription's state now.", schema: SubscriptionState },
  errors: ['unknown_token', 'token_expired', 'idempotency_key_reused', 'idempotency_key_in_use'],
});

export const withdrawSubscription = defineOperation({
  operationId: 'withdrawSubscription',
  method: 'post',
  path: '/subscriptions/withdrawals',
  scope: 'core',
  tag: 'Signups',
  summary: 'Unsubscribe with the token from any mail of a subscription',
  description:
    'Ends the subscription (`unsubscribed`) and records the withdrawal — when, and whether by a mail ' +
    "client's one-click POST (RFC 8058) or the unsubscribe page — on the consent it stood on. The token " +
    'does not expire: an unsubscribe link keeps working. Unsubscribing twice is harmless (`changed: false`).\n\n' +
    tokenNotes,
  body: SubscriptionWithdrawalRequest,
  success: { status: 200, description: "The subscription's state now (`unsubscribed`).", schema: SubscriptionState },
  errors: ['unknown_token', 'idempotency_key_reused', 'idempotency_key_in_use'],
});

export const signupOperations = [createStockSubscription, createNewsletterSubscription, confirmSubscription, withdrawSubscription];
