import { describe, expect, it } from 'vitest';
import { DomainError } from '@/lib/platform/errors';
import { computeTotals, lineTotal, mergeLines } from '@/lib/commerce/checkout/pricing';
import { assertOpen, canTransition, isDue, statusAt, transition, SESSION_STATUSES, type SessionEvent } from '@/lib/commerce/checkout/state';
import { normalisePhone, normalisePostalCode, postalCodeProblem, postalNumber } from '@/lib/contract/address';
import { ifMatchSatisfied, sessionEtag } from '@/lib/commerce/checkout/session-storage';
import { toMoney } from '@/lib/commerce/money';
import { AddressInput, CreateCheckoutSessionBody, UpdateCheckoutSessionBody } from '@/lib/contract/checkout';

const SE = { taxInclusive: true, taxRateBp: 2500 };
const DE = { taxInclusive: true, taxRateBp: 1900 };
const US = { taxInclusive: false, taxRateBp: 0 };

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
  return undefined;
}

describe('pricing', () => {
  it.each([
    // market, line totals, shipping, expected { subtotal, shipping, tax, total }
    ['SEK, inclusive 25%', SE, [2 * 24900], null, { subtotal: 49800, shipping: null, tax: 9960, total: 49800 }],
    ['SEK with shipping: tax on goods and shipping', SE, [49800], 4900, { subtotal: 49800, shipping: 4900, tax: 10940, total: 54700 }],
    ['EUR, inclusive 19%, rounded half up once', DE, [3 * 1490], null, { subtotal: 4470, shipping: null, tax: 714, total: 4470 }],
    ['EUR with shipping', DE, [1490, 995], 495, { subtotal: 2485, shipping: 495, tax: 476, total: 2980 }],
    ['USD, exclusive at 0%: nothing added', US, [2 * 2199], 599, { subtotal: 4398, shipping: 599, tax: 0, total: 4997 }],
    [
      'exclusive with a rate: tax added on top',
      { taxInclusive: false, taxRateBp: 825 },
      [1999],
      null,
      { subtotal: 1999, shipping: null, tax: 165, total: 2164 },
    ],
    ['empty session', SE, [], null, { subtotal: 0, shipping: null, tax: 0, total: 0 }],
  ] as const)('%s', (_name, rule, lines, shipping, expected) => {
    const totals = computeTotals(lines, shipping, rule);
    expect(totals).toEqual(expected);
    for (const value of [totals.subtotal, totals.tax, totals.total]) expect(Number.isInteger(value)).toBe(true);
  });

  it('sums many lines without floating-point drift (0.1 + 0.2 style amounts)', () => {
    const lines = Array.from({ length: 100 }, () => lineTotal(10, 99)); // 0.10 × 99, a hundred times
    const totals = computeTotals(lines, 30, SE);
    expect(totals.total).toBe(99_030);
    expect(toMoney(totals.total, 'SEK')).toEqual({ amount: '990.30', currency: 'SEK' });
    expect(toMoney(totals.tax, 'SEK').amount).toBe('198.06');
  });

  it('refuses amounts past safe integers rather than rounding them', () => {
    expect(() => lineTotal(Number.MAX_SAFE_INTEGER, 2)).toThrow();
  });
});

describe('merging duplicate lines', () => {
  it('folds the same variant into its first position and remembers every request index', () => {
    expect(
      mergeLines([
        { variantId: 'a', quantity: 1 },
        { variantId: 'b', quantity: 2 },
        { variantId: 'a', quantity: 3 },
      ]),
    ).toEqual([
      { variantId: 'a', quantity: 4, indexes: [0, 2] },
      { variantId: 'b', quantity: 2, indexes: [1] },
    ]);
  });

  it('rejects a merged quantity over 99, pointing at each line of that variant', () => {
    const parsed = CreateCheckoutSessionBody.safeParse({
      lines: [
        { variantId: 'a', quantity: 60 },
        { variantId: 'b', quantity: 1 },
        { variantId: 'a', quantity: 40 },
      ],
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.path.join('/'))).toEqual(['lines/0/quantity', 'lines/2/quantity']);
    expect(
      CreateCheckoutSessionBody.safeParse({
        lines: [
          { variantId: 'a', quantity: 60 },
          { variantId: 'a', quantity: 39 },
        ],
      }).success,
    ).toBe(true);
  });

  it.each([
    ['no lines', { lines: [] }],
    ['101 lines', { lines: Array.from({ length: 101 }, (_, i) => ({ variantId: `v${i}`, quantity: 1 })) }],
    ['quantity 0', { lines: [{ variantId: 'a', quantity: 0 }] }],
    ['quantity 100', { lines: [{ variantId: 'a', quantity: 100 }] }],
    ['quantity 1.5', { lines: [{ variantId: 'a', quantity: 1.5 }] }],
    ['quantity "2"', { lines: [{ variantId: 'a', quantity: '2' }] }],
    ['a price from the caller', { lines: [{ variantId: 'a', quantity: 1, unitPrice: { amount: '1.00', currency: 'SEK' } }] }],
    ['an unknown top-level field', { lines: [{ variantId: 'a', quantity: 1 }], total: '1.00' }],
  ])('rejects %s', (_name, body) => {
    expect(CreateCheckoutSessionBody.safeParse(body).success).toBe(false);
  });
});

describe('the session state machine', () => {
  const allowed: [string, SessionEvent, string][] = [
    ['open', 'prepare_payment', 'payment_pending'],
    ['open', 'expire', 'expired'],
    ['payment_pending', 'complete', 'completed'],
    ['payment_pending', 'expire', 'expired'],
  ];
  it.each(allowed)('%s --%s--> %s', (from, event, to) => {
    expect(transition(from as never, event)).toBe(to);
  });

  it('refuses every other transition with the contract code', () => {
    const events: SessionEvent[] = ['prepare_payment', 'complete', 'expire'];
    for (const status of SESSION_STATUSES) {
      for (const event of events) {
        if (allowed.some(([f, e]) => f === status && e === event)) continue;
        expect(canTransition(status, event)).toBe(false);
        expect(codeOf(() => transition(status, event))).toBe(status === 'expired' ? 'session_expired' : 'session_not_open');
      }
    }
  });

  it('only open sessions change: 409 session_not_open, 410 session_expired', () => {
    expect(codeOf(() => assertOpen('open'))).toBeUndefined();
    expect(codeOf(() => assertOpen('payment_pending'))).toBe('session_not_open');
    expect(codeOf(() => assertOpen('completed'))).toBe('session_not_open');
    expect(codeOf(() => assertOpen('expired'))).toBe('session_expired');
  });

  it('expiry is due at expiresAt, for open and payment_pending sessions only', () => {
    const at = 1_000_000;
    expect(isDue({ status: 'open', expiresAt: at }, at - 1)).toBe(false);
    expect(isDue({ status: 'open', expiresAt: at }, at)).toBe(true);
    expect(statusAt({ status: 'payment_pending', expiresAt: at }, at + 1)).toBe('expired');
    expect(statusAt({ status: 'completed', expiresAt: at }, at + 1)).toBe('completed');
  });
});

describe('ETag and If-Match', () => {
  const etag = sessionEtag({ id: 'cs_abc', revision: 3 });
  it.each([
    [null, true],
    ['*', true],
    ['"cs_abc-r3"', true],
    ['"cs_x-r1", "cs_abc-r3"', true],
    ['"cs_abc-r2"', false],
    ['W/"cs_abc-r3"', false], // If-Match compares strongly
    ['"cs_other-r3"', false],
  ])('If-Match %s → %s', (header, expected) => {
    expect(etag).toBe('"cs_abc-r3"');
    expect(ifMatchSatisfied(header, etag)).toBe(expected);
  });
});

describe('address rules', () => {
  it.each([
    ['SE', '11122', '111 22'],
    ['SE', '111 22', '111 22'],
    ['DE', '10115', '10115'],
    ['AT', '1010', '1010'],
    ['US', '10001', '10001'],
    ['US', '10001-1234', '10001-1234'],
  ])('%s %s is valid and stored as %s', (country, code, stored) => {
    expect(postalCodeProblem(country, code)).toBeNull();
    expect(normalisePostalCode(country, code)).toBe(stored);
  });

  it.each([
    ['SE', '1112'],
    ['SE', '111-22'],
    ['DE', '1011'],
    ['DE', 'ABCDE'],
    ['AT', '10101'],
    ['US', '1000'],
    ['US', '10001-12'],
  ])('%s %s is not a postal code there', (country, code) => expect(postalCodeProblem(country, code)).not.toBeNull());

  it("needs a US address's state, as its USPS code, and leaves other countries' regions optional", () => {
    const us = { firstName: 'Kim', lastName: 'Berg', line1: '350 Fifth Avenue', postalCode: '10118', city: 'New York', country: 'US' };
    expect(AddressInput.parse({ ...us, region: ' ny ' }).region).toBe('NY');
    expect(AddressInput.parse({ ...us, region: 'PR' }).region).toBe('PR');
    for (const region of [undefined, '', 'XX', 'New York']) {
      const result = AddressInput.safeParse({ ...us, ...(region === undefined ? {} : { region }) });
      expect(result.success, String(region)).toBe(false);
      expect(
        result.error?.issues.map((i) => i.path.join('/')),
        String(region),
      ).toContain('region');
    }
    const se = { ...us, line1: 'Drottninggatan 1', postalCode: '11151', city: 'Stockholm', country: 'SE' };
    expect(AddressInput.parse(se).region).toBeUndefined();
    expect(AddressInput.parse({ ...se, region: 'Stockholms län' }).region).toBe('Stockholms län');
  });

  it('reads postal codes as numbers for nearness', () => {
    expect(postalNumber('111 22')).toBe(11122);
    expect(postalNumber('10001-1234')).toBe(10001);
    expect(postalNumber('ABC')).toBeNull();
  });

  it.each([
    ['+46 70-123 45 67', '+46701234567'],
    ['0046 70 123 45 67', '+46701234567'],
    ['+1 (212) 555-0100', '+12125550100'],
    ['070-123 45 67', null],
    ['+46 12', null],
    ['call me', null],
  ])('phone %s → %s', (raw, expected) => expect(normalisePhone(raw)).toBe(expected));

  it('validates and normalises an address like a real checkout', () => {
    const ok = AddressInput.parse({
      firstName: ' Kim ',
      lastName: 'Berg',
      line1: 'Drottninggatan 1',
      postalCode: '11151',
      city: 'Stockholm',
      country: 'se',
      line2: '',
    });
    expect(ok).toEqual({
      firstName: 'Kim',
      lastName: 'Berg',
      line1: 'Drottninggatan 1',
      postalCode: '111 51',
      city: 'Stockholm',
      country: 'SE',
    });
    const bad = AddressInput.safeParse({
      firstName: '',
      lastName: 'x'.repeat(101),
      line1: 'a\u0000b',
      postalCode: '123',
      city: 'Berlin',
      country: 'DE',
      extra: 1,
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path.join('/') || i.code).sort()).toEqual([
      'firstName',
      'lastName',
      'line1',
      'postalCode',
      'unrecognized_keys',
    ]);
    const postal = AddressInput.safeParse({
      firstName: 'A',
      lastName: 'B',
      line1: 'C 1',
      postalCode: '123',
      city: 'Berlin',
      country: 'DE',
    });
    expect(postal.error!.issues.map((i) => i.path.join('/'))).toEqual(['postalCode']);
  });

  it('PATCH takes null to clear and refuses unknown fields', () => {
    expect(UpdateCheckoutSessionBody.parse({ email: null, phone: '+46701234567', shippingAddress: null })).toEqual({
      email: null,
      phone: '+46701234567',
      shippingAddress: null,
    });
    expect(UpdateCheckoutSessionBody.safeParse({ status: 'completed' }).success).toBe(false);
    expect(UpdateCheckoutSessionBody.safeParse({ phone: '12' }).success).toBe(false);
    expect(UpdateCheckoutSessionBody.safeParse({ email: 'not-an-email' }).success).toBe(false);
  });
});
