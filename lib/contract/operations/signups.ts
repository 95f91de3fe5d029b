import { defineOperation } from '../operation';
import { NewsletterSubscriptionRequest, SignupReceipt, StockSubscriptionRequest } from '../signups';

const signupNotes =
  'Answers 202 with the same body whether the address is new or already signed up, so signups cannot be ' +
  'used to find out who is subscribed. Each call keeps a consent record (purpose, the exact text, its ' +
  'version and sha256, locale, source, server time, credential). A new subscription starts in ' +
  '`pending_confirmation` (double opt-in) and queues exactly one confirmation message in a transactional ' +
  'outbox, in the same database transaction; a notification worker sends the mail — this API sends none. ' +
  'A repeat creates no second subscription and no second message. `Site-Buyer-IP` is never stored.\n\n' +
  'Send an `Idempotency-Key` header (1–255 printable ASCII) to retry safely: the same key and body within ' +
  '24 h replays the first answer with `Idempotent-Replayed: true`.';

export const createStockSubscription = defineOperation({
  operationId: 'createStockSubscription', method: 'post', path: '/commerce/stock-subscriptions', scope: 'core', tag: 'Signups',
  summary: 'Sign an address up for a back-in-stock notification',
  description:
    'For one published variant of this Site, through a notification flow (`flow`, default: the Site\'s ' +
    'default stock flow; it must be an enabled e-mail flow, else `unknown_flow`). Its consent is its own ' +
    'record and never counts as newsletter consent. A missing consent, or one not granted with the JSON ' +
    'literal `true`, is `consent_required` (checked before the other fields).\n\n' + signupNotes,
  body: StockSubscriptionRequest,
  success: { status: 202, description: 'Accepted.', schema: SignupReceipt, headers: ['Idempotent-Replayed'] },
  errors: ['not_found', 'consent_required', 'unknown_flow', 'unknown_market', 'unsupported_locale', 'idempotency_key_reused', 'idempotency_key_in_use'],
});

export const createNewsletterSubscription = defineOperation({
  operationId: 'createNewsletterSubscription', method: 'post', path: '/newsletter/subscriptions', scope: 'core', tag: 'Signups',
  summary: 'Sign an address up for the Site\'s newsletter',
  description:
    'Its consent is its own record and is never taken from a stock-notification signup. A missing consent, ' +
    'or one not granted with the JSON literal `true`, is `consent_required` (checked before the other ' +
    'fields). An address that unsubscribed earlier is asked to confirm again.\n\n' + signupNotes,
  body: NewsletterSubscriptionRequest,
  success: { status: 202, description: 'Accepted.', schema: SignupReceipt, headers: ['Idempotent-Replayed'] },
  errors: ['consent_required', 'unknown_market', 'unsupported_locale', 'idempotency_key_reused', 'idempotency_key_in_use'],
});

export const signupOperations = [createStockSubscription, createNewsletterSubscription];
