import { defineOperation } from '../operation';
import { AnalyticsBatch, AnalyticsReceipt, MAX_ANALYTICS_EVENTS } from '../analytics';

export const submitAnalyticsEvents = defineOperation({
  operationId: 'submitAnalyticsEvents',
  method: 'post',
  path: '/analytics/events',
  scope: 'extended',
  tag: 'Analytics',
  summary: 'Submit a batch of storefront analytics events',
  description: [
    `A batch holds 1–${MAX_ANALYTICS_EVENTS} events. The envelope is all or nothing: a body that is not an object, has no`,
    '`events` array, has 0 or more than 50 events, or has a field besides `events` is a 422 `validation_failed` and',
    'nothing is stored. Each event is then judged on its own; the rest of the batch is stored even when some are',
    'rejected, and each rejection names its `index`, a `pointer` and a `code`:',
    '',
    '- `invalid_event`: the event does not match `AnalyticsEvent` (unknown type or field, a string out of bounds,',
    '  a `value` with more decimals than its currency has or a negative or unknown-currency `value`).',
    '- `personal_data`: some string in the event — `path` and `query` included, after URL-decoding — looks like an',
    '  e-mail address, a phone number or a payment card number (13–19 digits passing the Luhn check). Send',
    '  pseudonymous data only.',
    '- `occurred_at_out_of_range`: `occurredAt` is more than 5 minutes ahead of, or more than 7 days behind, the',
    "  server's clock.",
    '',
    'Stored per event: the Site, its type, `occurredAt` (and its UTC day), the time received, `anonymousId` and the',
    "event's other fields (`value` as integer minor units). Never stored: the caller's IP address or Site-Buyer-IP,",
    'the user agent, the credential, or anything else about the request. Events are append-only.',
  ].join('\n'),
  body: AnalyticsBatch,
  success: {
    status: 202,
    description: 'How many events were stored and which were rejected.',
    schema: AnalyticsReceipt,
    headers: ['Idempotent-Replayed'],
  },
  errors: ['validation_failed'],
});

export const analyticsOperations = [submitAnalyticsEvents];
