import { z } from 'zod';
import { Link, Money, Timestamp } from './common';
import { Email } from './email';
import { MAX_LINE_QUANTITY, mergeBundles, mergeLines } from './checkout-lines';
import { normalisePhone, normalisePostalCode, normaliseRegion, postalCodeProblem, postalCodeRulesText, regionProblem } from './address';

// ——— building blocks ———

const NO_CONTROL = /^[^\p{Cc}]*$/u;
const text = (max: number) => z.string().trim().min(1).max(max).regex(NO_CONTROL, 'Control characters are not allowed.');
const optionalText = (max: number) => z.string().trim().max(max).regex(NO_CONTROL, 'Control characters are not allowed.').optional();

export const CountryCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, 'An ISO 3166-1 alpha-2 country code, e.g. SE.')
  .transform((c) => c.toUpperCase())
  .meta({ description: 'ISO 3166-1 alpha-2 country code.', example: 'SE' });

export const Phone = z
  .string()
  .max(40)
  .transform((raw, ctx) => {
    const phone = normalisePhone(raw);
    if (!phone)
      ctx.addIssue({
        code: 'custom',
        params: { code: 'invalid_phone' },
        message: 'A phone number in international form, e.g. +46701234567.',
      });
    return phone ?? raw;
  })
  .meta({
    description: 'International (E.164) form; spaces, dashes and brackets are removed.',
    example: '+46701234567',
    override: { type: 'string' },
  });

export const CheckoutSessionId = z
  .string()
  .meta({ description: "A checkout session id (`cs_…`). Another Site's or a malformed id answers 404." });
export const CheckoutSessionParams = z.object({ id: CheckoutSessionId });

// ——— addresses ———

const addressShape = {
  firstName: text(100),
  lastName: text(100),
  line1: text(200),
  line2: optionalText(200),
  postalCode: text(20).meta({ description: postalCodeRulesText() }),
  city: text(100),
  region: optionalText(100),
  country: CountryCode,
};

/** An address as sent: trimmed, bounded, postal code checked for its country and normalised (SE "11122" → "111 22"). */
export const AddressInput = z
  .object(addressShape)
  .strict()
  .superRefine((a, ctx) => {
    const problem = postalCodeProblem(a.country, a.postalCode);
    if (problem) ctx.addIssue({ code: 'custom', params: { code: 'invalid_postal_code' }, path: ['postalCode'], message: problem });
    const region = regionProblem(a.country, a.region);
    if (region) ctx.addIssue({ code: 'custom', params: { code: 'invalid_region' }, path: ['region'], message: region });
  })
  .transform(({ line2, region, ...a }) => ({
    ...a,
    postalCode: normalisePostalCode(a.country, a.postalCode),
    ...(line2 ? { line2 } : {}),
    ...(region ? { region: normaliseRegion(a.country, region) } : {}),
  }))
  .meta({
    id: 'AddressInput',
    description:
      "Names and city at most 100 characters, address lines at most 200. The country must belong to the session's market " +
      '(else 422 `country_not_in_market`). Postal codes are checked per country: SE `NNN NN` or `NNNNN` (stored as `NNN NN`), ' +
      'DE five digits, AT four digits, US `NNNNN` or `NNNNN-NNNN`. A US address needs `region`, its state as a USPS code ' +
      '(`NY`, `CA`, `DC`, `PR`…, stored upper-case); elsewhere `region` is optional.',
  });
export type AddressInput = z.infer<typeof AddressInput>;

export const Address = z
  .object({
    firstName: z.string(),
    lastName: z.string(),
    line1: z.string(),
    line2: z.string().optional(),
    postalCode: z.string(),
    city: z.string(),
    region: z.string().optional(),
    country: z.string(),
  })
  .meta({ id: 'Address' });
export type Address = z.infer<typeof Address>;

// ——— the session ———

export const CheckoutLine = z
  .object({
    variantId: z.string(),
    productHandle: z.string(),
    title: z.string().meta({ description: '"Product title — Variant title" in the session\'s locale.' }),
    quantity: z.number().int(),
    unitPrice: Money,
    total: Money,
  })
  .meta({ id: 'CheckoutLine' });

export const CheckoutTotals = z
  .object({
    subtotal: Money.meta({ description: 'Sum of the line totals.' }),
    shipping: Money.nullable().meta({ description: "The chosen delivery option's price; null until one is chosen." }),
    tax: Money.meta({
      description:
        'Tax on goods and shipping. Tax-inclusive markets (e.g. SE, DE): the tax contained in subtotal + shipping. ' +
        'Tax-exclusive markets (e.g. US): the tax added on top.',
    }),
    total: Money.meta({ description: 'Tax-inclusive markets: subtotal + shipping. Tax-exclusive markets: subtotal + shipping + tax.' }),
  })
  .meta({ id: 'CheckoutTotals' });

export const EstimatedDays = z.object({ min: z.number().int(), max: z.number().int() }).meta({ id: 'EstimatedDays' });

export const SelectedDeliveryOption = z
  .object({
    id: z.string(),
    kind: z.enum(['delivery', 'pickup']),
    title: z.string(),
    carrier: z.string(),
    price: Money,
    estimatedDays: EstimatedDays,
    pickupPointId: z.string().nullable(),
  })
  .meta({ id: 'SelectedDeliveryOption', description: 'The delivery option stored on the session, priced when it was chosen.' });

export const CheckoutSessionStatus = z.enum(['open', 'payment_pending', 'completed', 'expired']).meta({
  id: 'CheckoutSessionStatus',
  description:
    "`open` → `payment_pending` (prepare-payment) → `completed` (by the payment provider's confirmation, outside this API; " +
    'the session then names its order); `payment_pending` → `open` when the payment failed or was cancelled; `open` or ' +
    '`payment_pending` → `expired` once `expiresAt` passes. Only `open` sessions change.',
});

export const CheckoutSession = z
  .object({
    id: z.string(),
    status: CheckoutSessionStatus,
    market: z.string(),
    locale: z.string(),
    currency: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    lines: z.array(CheckoutLine),
    totals: CheckoutTotals,
    shippingAddress: Address.nullable(),
    billingAddress: Address.nullable(),
    deliveryOption: SelectedDeliveryOption.nullable(),
    checkoutUrl: Link('The hosted checkout for this session (discounts, shipping, payment status), an absolute URL.'),
    order: z
      .object({
        number: z.string().meta({ description: 'The order number the shopper and the merchant see.', example: 'NHG-10042' }),
        createdAt: Timestamp,
      })
      .optional()
      .meta({ description: 'The order a `completed` session became, once its payment was confirmed; absent before.' }),
    expiresAt: Timestamp,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'CheckoutSession' });
export type CheckoutSession = z.infer<typeof CheckoutSession>;

// ——— requests ———

export const CheckoutLineInput = z
  .object({
    variantId: z.string().min(1).max(200),
    quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY),
  })
  .strict();

export const CheckoutBundleInput = z
  .object({
    bundleId: z.string().min(1).max(200).meta({ description: "A bundle id from a Product's `bundles`." }),
    quantity: z.number().int().min(1).max(MAX_LINE_QUANTITY).meta({ description: 'How many of the whole bundle.' }),
  })
  .strict()
  .meta({ id: 'CheckoutBundleInput' });

/** Duplicates are folded into one; the folded quantity has the same bound as a single one. */
function checkMergedQuantities(
  ctx: z.RefinementCtx,
  field: 'lines' | 'bundles',
  merged: { quantity: number; indexes: number[] }[],
  what: string,
  per: string,
) {
  for (const entry of merged) {
    // A single entry over the bound is already reported by its own quantity check.
    if (entry.indexes.length < 2 || entry.quantity <= MAX_LINE_QUANTITY) continue;
    for (const index of entry.indexes) {
      ctx.addIssue({
        code: 'custom',
        params: { code: 'too_big' },
        path: [field, index, 'quantity'],
        message: `${what} add up to ${entry.quantity}; at most ${MAX_LINE_QUANTITY} per ${per}.`,
      });
    }
  }
}

export const CreateCheckoutSessionBody = z
  .object({
    lines: z.array(CheckoutLineInput).max(100),
    bundles: z.array(CheckoutBundleInput).max(20).optional().meta({
      description: 'Bundles to buy at the bundle price. Each becomes one session line per item, the bundle price allocated over them.',
    }),
    market: z.string().min(1).max(64).optional().meta({ description: "Market id; default the Site's default market." }),
    locale: z.string().min(1).max(64).optional().meta({ description: "A locale of that market; default the market's." }),
    email: Email.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.lines.length === 0 && !body.bundles?.length) {
      ctx.addIssue({
        code: 'custom',
        params: { code: 'too_small' },
        path: ['lines'],
        message: 'At least one line or one bundle is needed.',
      });
    }
    checkMergedQuantities(ctx, 'lines', mergeLines(body.lines), 'Lines of the same variant', 'variant');
    checkMergedQuantities(ctx, 'bundles', mergeBundles(body.bundles ?? []), 'Entries of the same bundle', 'bundle');
  })
  .meta({
    id: 'CreateCheckoutSessionBody',
    description:
      "Prices, currency and totals come from the catalog for the session's market, never from the caller. `lines` may be empty when " +
      "`bundles` is not. Lines of the same variant are merged, and so are entries of the same bundle; a bundle's lines stay apart " +
      'from plain lines of the same variant. At most 100 session lines in all (one per plain variant plus one per item of each bundle).',
  });
export type CreateCheckoutSessionBody = z.infer<typeof CreateCheckoutSessionBody>;

export const UpdateCheckoutSessionBody = z
  .object({
    email: Email.nullable().optional(),
    phone: Phone.nullable().optional(),
    shippingAddress: AddressInput.nullable().optional(),
    billingAddress: AddressInput.nullable().optional(),
  })
  .strict()
  .meta({ id: 'UpdateCheckoutSessionBody', description: 'Every field optional; given fields replace the stored ones, `null` clears one.' });
export type UpdateCheckoutSessionBody = z.infer<typeof UpdateCheckoutSessionBody>;

export const AddressSuggestionsQuery = z.object({
  q: z
    .string()
    .trim()
    .min(3)
    .max(100)
    .meta({ description: 'What the shopper typed so far (3–100 characters): street, postal code or city. Never logged.' }),
});

export const ChangeCountryBody = z.object({ country: CountryCode }).strict().meta({ id: 'ChangeCountryBody' });

export const DeliveryOptionsBody = z
  .object({
    postalCode: z
      .string()
      .trim()
      .min(1)
      .max(20)
      .optional()
      .meta({ description: "Where to look for pickup points; default the shipping address's." }),
    select: z.string().min(1).max(200).optional().meta({ description: 'An option id from a previous answer to store on the session.' }),
  })
  .strict()
  .meta({ id: 'DeliveryOptionsBody' });

export const PaymentMethod = z.enum(['card', 'wallet', 'invoice']);
export type PaymentMethod = z.infer<typeof PaymentMethod>;
export const PreparePaymentBody = z
  .object({ method: PaymentMethod.optional().meta({ description: 'Payment method to prepare; default `card`.' }) })
  .strict()
  .meta({ id: 'PreparePaymentBody' });

// ——— merchant checkout answers ———

export const SuggestedAddress = z
  .object({ line1: z.string(), postalCode: z.string(), city: z.string(), region: z.string().optional(), country: z.string() })
  .meta({ id: 'SuggestedAddress', description: 'The street part of an Address; the shopper adds names (and line2).' });

export const AddressSuggestion = z
  .object({ id: z.string(), label: z.string().meta({ example: 'Drottninggatan 12, 111 51 Stockholm' }), address: SuggestedAddress })
  .meta({ id: 'AddressSuggestion' });
export type AddressSuggestion = z.infer<typeof AddressSuggestion>;
export type SuggestedAddress = z.infer<typeof SuggestedAddress>;

/** The most suggestions one answer holds. */
export const MAX_ADDRESS_SUGGESTIONS = 10;
export const AddressSuggestions = z
  .object({ data: z.array(AddressSuggestion).max(MAX_ADDRESS_SUGGESTIONS) })
  .meta({ id: 'AddressSuggestions' });

export const CountryChangeWarning = z
  .object({
    variantId: z.string(),
    code: z.enum(['not_sold_in_market', 'insufficient_stock']),
    detail: z.string(),
  })
  .meta({ id: 'CountryChangeWarning', description: 'A line that was removed because it cannot be sold in the new market.' });

export const CountryChangeQuote = z
  .object({
    session: CheckoutSession,
    quote: z.object({
      previousTotal: Money.meta({ description: 'The total before the change, in the old currency.' }),
      total: Money.meta({ description: "The total now, in the new market's currency (without shipping: the delivery option is cleared)." }),
      warnings: z.array(CountryChangeWarning),
    }),
  })
  .meta({ id: 'CountryChangeQuote' });

export const PickupPoint = z
  .object({
    id: z.string(),
    name: z.string(),
    address: z.object({ line1: z.string(), postalCode: z.string(), city: z.string(), country: z.string() }),
    openingHours: z.record(z.string(), z.string()).meta({ example: { 'mon-fri': '08-20', sat: '10-16', sun: 'closed' } }),
  })
  .meta({ id: 'PickupPoint' });

export const DeliveryOption = z
  .object({
    id: z
      .string()
      .meta({ description: 'Stable id to pass as `select`: `ship_…` for home delivery, `pickup_<pointId>` for a pickup point.' }),
    kind: z.enum(['delivery', 'pickup']),
    title: z.string(),
    carrier: z.string(),
    price: Money,
    estimatedDays: EstimatedDays,
    pickupPoint: PickupPoint.optional(),
  })
  .meta({ id: 'DeliveryOption' });
export type DeliveryOption = z.infer<typeof DeliveryOption>;

export const DeliveryOptions = z
  .object({ options: z.array(DeliveryOption), selected: z.string().nullable(), session: CheckoutSession })
  .meta({ id: 'DeliveryOptions' });

export const PaymentPreparation = z
  .object({
    session: CheckoutSession,
    payment: z.object({
      provider: z.string().meta({ description: 'The payment adapter; `sandbox` is the built-in test provider that moves no money.' }),
      reference: z.string().meta({ example: 'pay_sandbox_4hX2…' }),
      clientToken: z.string().meta({ description: "Hand to the provider's payment form in the shopper's browser." }),
      redirectUrl: z
        .string()
        .url()
        .optional()
        .meta({ description: "The provider's hosted payment page, where the shopper pays (absent for the sandbox)." }),
      amount: Money,
      expiresAt: Timestamp,
    }),
  })
  .meta({ id: 'PaymentPreparation' });
