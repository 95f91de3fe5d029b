import 'zod-openapi';
import { z } from 'zod';
import { Email } from './email';

export { Email };

/** No control characters (C0, DEL, C1): they have no business in stored text and break logs. */
const NO_CONTROL = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]*$/;
const NO_CONTROL_OR_NEWLINE = /^[^\u0000-\u001F\u007F-\u009F]*$/;

/**
 * The consent exactly as the shopper saw it. `granted` must be the JSON literal `true`:
 * a missing consent, `false` or `"true"` is 422 `consent_required`, checked before any
 * other field so the caller learns the one thing that matters first.
 */
export const Consent = z
  .object({
    granted: z.literal(true).meta({ description: 'Must be `true`: the shopper actively agreed.' }),
    text: z
      .string()
      .min(1)
      .max(2000)
      .regex(/\S/, 'The consent text is blank.')
      .regex(NO_CONTROL, 'Control characters are not allowed.')
      .meta({ description: 'The exact text the shopper agreed to (1–2000 characters), stored verbatim with its sha256.' }),
    version: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[^\s\p{Cc}](?:[^\p{Cc}]*[^\s\p{Cc}])?$/u, 'Printable, without leading or trailing spaces.')
      .meta({ description: 'Your version label of that text (1–64 characters), e.g. `2026-01`.', example: '2026-01' }),
  })
  .strict()
  .meta({ id: 'Consent' });
export type Consent = z.infer<typeof Consent>;

const Locale = z
  .string()
  .min(2)
  .max(35)
  .regex(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, 'A BCP 47 language tag.')
  .meta({ description: "BCP 47 locale offered in the market (default: the market's). Used for the confirmation mail.", example: 'sv-SE' });
const MarketId = z.string().min(1).max(64).meta({ description: "Market id (default: the Site's default market).", example: 'se' });

export const StockSubscriptionRequest = z
  .object({
    variantId: z.string().min(1).max(200).meta({ description: 'A published variant of this Site.' }),
    email: Email,
    consent: Consent,
    flow: z.string().min(1).max(64).optional().meta({
      description: "Handle of an enabled e-mail stock-notification flow of the Site. Default: the Site's default flow.",
      example: 'back-in-stock-email',
    }),
    locale: Locale.optional(),
    market: MarketId.optional(),
  })
  .strict()
  .meta({ id: 'StockSubscriptionRequest' });
export type StockSubscriptionRequest = z.infer<typeof StockSubscriptionRequest>;

export const NewsletterSubscriptionRequest = z
  .object({
    email: Email,
    consent: Consent,
    locale: Locale.optional(),
    market: MarketId.optional(),
    source: z
      .string()
      .min(1)
      .max(64)
      .regex(NO_CONTROL_OR_NEWLINE, 'Control characters are not allowed.')
      .optional()
      .meta({ description: 'Where the shopper signed up (e.g. `footer`, `checkout`), kept with the consent record.', example: 'footer' }),
  })
  .strict()
  .meta({ id: 'NewsletterSubscriptionRequest' });
export type NewsletterSubscriptionRequest = z.infer<typeof NewsletterSubscriptionRequest>;

/** Deliberately the same for a new and a known address, so signups cannot be used to probe who is subscribed. */
export const SignupReceipt = z
  .object({ status: z.literal('accepted') })
  .meta({ id: 'SignupReceipt', description: 'Accepted. A confirmation mail will be sent (double opt-in) if this is a new signup.' });
export type SignupReceipt = z.infer<typeof SignupReceipt>;

/** The token from a link in a mail: 43 base64url characters (256 random bits). Only its hash is stored. */
export const SubscriptionToken = z
  .string()
  .min(16)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/, 'A token from a link in one of our mails (base64url).')
  .meta({
    description: 'The `token` parameter of the link in the mail, exactly as it came.',
    example: 'bGlua3Rva2VuLWV4YW1wbGUtMDEyMzQ1Njc4OWFiY2RlZmdo',
  });

export const SubscriptionConfirmationRequest = z
  .object({ token: SubscriptionToken })
  .strict()
  .meta({ id: 'SubscriptionConfirmationRequest' });
export type SubscriptionConfirmationRequest = z.infer<typeof SubscriptionConfirmationRequest>;

export const SubscriptionWithdrawalRequest = z
  .object({
    token: SubscriptionToken,
    method: z.enum(['one_click', 'page']).default('page').meta({
      description:
        "`one_click`: the mail client's RFC 8058 POST; `page`: the shopper pressed the button on the unsubscribe page. Kept with the withdrawal.",
    }),
  })
  .strict()
  .meta({ id: 'SubscriptionWithdrawalRequest' });
export type SubscriptionWithdrawalRequest = z.infer<typeof SubscriptionWithdrawalRequest>;

/** What a link did. It shows no address: whoever holds the link knows it already, and nobody else sees it. */
export const SubscriptionState = z
  .object({
    kind: z
      .enum(['stock', 'newsletter'])
      .meta({ description: "`stock`: a back-in-stock notification; `newsletter`: the Site's newsletter." }),
    status: z
      .enum(['pending_confirmation', 'active', 'notified', 'unsubscribed'])
      .meta({ description: 'The subscription now. `notified`: a back-in-stock mail has been queued and the alert has ended.' }),
    changed: z
      .boolean()
      .meta({ description: '`false` when the link had already been used (confirming or unsubscribing twice is harmless).' }),
  })
  .meta({ id: 'SubscriptionState' });
export type SubscriptionState = z.infer<typeof SubscriptionState>;
