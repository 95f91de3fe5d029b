import { z } from 'zod';
import { Money } from './common';

export const ANALYTICS_EVENT_TYPES = [
  'page_view',
  'product_view',
  'collection_view',
  'add_to_cart',
  'remove_from_cart',
  'begin_checkout',
  'search',
  'experiment_exposure',
] as const;

export const AnalyticsEventType = z.enum(ANALYTICS_EVENT_TYPES).meta({ id: 'AnalyticsEventType' });
export type AnalyticsEventType = z.infer<typeof AnalyticsEventType>;

/** Bounded, single-line text: control characters have no business in analytics fields. */
function text(max: number) {
  return z
    .string()
    .min(1)
    .max(max)
    .regex(/^[^\p{Cc}]*$/u, 'Control characters are not allowed.');
}

export const AnalyticsExperiment = z
  .object({ id: text(64), variant: text(64) })
  .strict()
  .meta({ id: 'AnalyticsExperiment' });

/** An amount sent with an event: the two fields of Money and nothing else, as every object here. */
export const AnalyticsValue = z
  .object({ amount: Money.shape.amount, currency: Money.shape.currency })
  .strict()
  .meta({ id: 'AnalyticsValue', description: "A non-negative amount in the currency's minor-unit precision (or fewer decimals)." });

export const AnalyticsEvent = z
  .object({
    type: AnalyticsEventType,
    occurredAt: z.iso.datetime({ offset: true }).meta({
      description:
        "RFC 3339. From 7 days before to 5 minutes after the server's clock, else the event is rejected with `occurred_at_out_of_range`.",
      example: '2026-11-21T10:00:00.000Z',
    }),
    anonymousId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,64}$/, 'Use 8–64 characters of A–Z, a–z, 0–9, _ and -.')
      .meta({ description: 'A random per-browser id chosen by the front end. Never an e-mail, phone number or account id.' }),
    // `//host/x` (or `/\host/x`) is another site's address, not a path of this one.
    path: text(512)
      .regex(/^\/(?![/\\])/, 'A path starts with one "/" (not "//").')
      .optional()
      .meta({ description: 'Page path and query string, e.g. `/products/fjord-ceramic-mug?ref=home`.' }),
    productHandle: text(200).optional(),
    variantId: text(200).optional(),
    collectionHandle: text(200).optional(),
    query: text(200).optional().meta({ description: 'The search terms of a `search` event.' }),
    quantity: z.number().int().min(1).max(999).optional(),
    value: AnalyticsValue.optional(),
    experiment: AnalyticsExperiment.optional().meta({ description: 'Required for `experiment_exposure`.' }),
  })
  .strict()
  .superRefine((event, ctx) => {
    if (event.type === 'experiment_exposure' && !event.experiment) {
      ctx.addIssue({ code: 'custom', path: ['experiment'], message: 'An experiment_exposure names its experiment.' });
    }
  })
  .meta({ id: 'AnalyticsEvent' });
export type AnalyticsEvent = z.infer<typeof AnalyticsEvent>;

/**
 * One element of a batch after the envelope parsed: either a well-formed event or the
 * place (relative to the event) where it first failed. A bad event is rejected on its
 * own; only a bad envelope fails the whole batch.
 */
export type AnalyticsEventSlot = { ok: true; event: AnalyticsEvent } | { ok: false; pointer: string };

const AnalyticsEventSlot = AnalyticsEvent.transform((event): AnalyticsEventSlot => ({ ok: true, event })).catch(
  ({ error }): AnalyticsEventSlot => {
    const issue = error.issues[0];
    // An unknown field is reported on its object; point at the field itself.
    const path = issue ? (issue.code === 'unrecognized_keys' ? [...issue.path, ...issue.keys.slice(0, 1)] : issue.path) : [];
    return { ok: false, pointer: path.map((p) => `/${String(p).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('') };
  },
);

export const MAX_ANALYTICS_EVENTS = 50;

export const AnalyticsBatch = z
  .object({ events: z.array(AnalyticsEventSlot).min(1).max(MAX_ANALYTICS_EVENTS) })
  .strict()
  .meta({ id: 'AnalyticsBatch' });
export type AnalyticsBatch = z.infer<typeof AnalyticsBatch>;

export const ANALYTICS_REJECTION_CODES = ['invalid_event', 'personal_data', 'occurred_at_out_of_range'] as const;

export const AnalyticsRejection = z
  .object({
    index: z.number().int().min(0).meta({ description: 'Position of the event in `events`.' }),
    code: z.enum(ANALYTICS_REJECTION_CODES),
    pointer: z.string().meta({ description: 'JSON Pointer to the offending field, e.g. `/events/3/path`. Never echoes the value.' }),
  })
  .meta({ id: 'AnalyticsRejection' });
export type AnalyticsRejection = z.infer<typeof AnalyticsRejection>;

export const AnalyticsReceipt = z
  .object({
    accepted: z.number().int().min(0).meta({ description: 'How many events were stored.' }),
    rejected: z.array(AnalyticsRejection),
  })
  .meta({ id: 'AnalyticsReceipt' });
export type AnalyticsReceipt = z.infer<typeof AnalyticsReceipt>;
