import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { analyticsEvents, sites } from '@/db/schema';
import { AnalyticsBatch } from '@/lib/contract/analytics';
import { findPersonalData, luhn, recordAnalyticsEvents, valueMinorUnits } from '@/lib/commerce/analytics';
import { freshDatabase } from './support/database';

describe('findPersonalData', () => {
  it.each([
    ['jane.doe@example.com', 'email'],
    ['Contact: Jane <jane+shop@mail.example.co.uk>', 'email'],
    ['/account?email=jane%40example.com', 'email'],
    ['/account?email=jane%2540example.com', 'email'], // double-encoded
    ['/newsletter?e=jane.doe%40example.se&ref=1', 'email'],
    ['jane＠example.com', 'email'], // full-width at sign
    ['+46 70 123 45 67', 'phone'],
    ['+46701234567', 'phone'],
    ['+1 (555) 123-4567', 'phone'],
    ['call 070-1234567 today', 'phone'],
    ['070-123 45 67', 'phone'],
    ['08-123 456 78', 'phone'],
    ['0701234567', 'phone'],
    ['(555) 123-4567', 'phone'],
    ['555-123-4567', 'phone'],
    ['555.123.4567', 'phone'],
    ['0046 70 123 45 67', 'phone'],
    ['/contact?phone=%2B46%2070%20123%2045%2067', 'phone'],
    ['/search?q=%2B46+70+123+45+67', 'phone'],
    ['/search?q=070-1234567', 'phone'],
    ['size 42 0701234567', 'phone'], // a phone after an unrelated number
    ['4111 1111 1111 1111', 'card'],
    ['4111-1111-1111-1111', 'card'],
    ['4111111111111111', 'card'],
    ['5555 5555 5555 4444', 'card'],
    ['3782 822463 10005', 'card'], // Amex grouping
    ['378282246310005', 'card'],
    ['/checkout?cc=4111%201111%201111%201111', 'card'],
    ['/pay?card=4242+4242+4242+4242', 'card'],
    ['gift-4111-1111-1111-1111', 'card'],
  ])('flags %s as %s', (text, kind) => {
    expect(findPersonalData(text)).toBe(kind);
  });

  it.each([
    'MUG-001-BLU',
    'SKU-2026-0042',
    'fjord-ceramic-mug',
    '/products/fjord-ceramic-mug?variant=var_01HZX3K9Q8&qty=2',
    '/collections/winter-2026',
    '/search?q=mug+2026&page=2&limit=24',
    '/products/tee?size=42&color=black',
    '199.00',
    '1990',
    '1 990 kr',
    '2026-11-21',
    '2026-11-21T10:00:00.000Z',
    '21.11.2026',
    '05-01-2026',
    '/orders/100234',
    '550e8400-e29b-41d4-a716-446655440000',
    '01234567-0123-4567-8901-234567890123',
    '35099681-5659-4234-bfcd-d0c761fc55b0', // 16 digits passing Luhn, but grouped like a UUID
    '49225100-4590-4310-b59f-14e6c4136638',
    'a716-0812-3456-b2c1',
    'mug-0701234567', // a handle with a long number is not a phone
    '1732183200000', // epoch milliseconds
    '/p?t=1732183200000',
    '4111 1111 1111 1112', // fails Luhn
    '0000 0000 0000 0000',
    '9783161484100', // ISBN-13
    '7350053850019', // EAN-13
    'v2.3.10',
    '1.2.3.4.5', // a version, not an address (IP addresses are refused: test/analytics-corpus.test.ts)
    '@storefront',
    'user@localhost',
    'exp-2026-q4-hero',
    'B+C',
    '%E0%A4%A', // broken percent-encoding does not throw
  ])('leaves %s alone', (text) => {
    expect(findPersonalData(text)).toBeNull();
  });

  it('does not take a UUID that begins like a birth date for an identity number', () => {
    expect(findPersonalData('19280229-7907-4a49-8f30-0ee77675ad4b')).toBeNull();
    expect(findPersonalData('/s?id=19850101-1234')).not.toBeNull();
  });

  it('never flags the random UUIDs the storefront uses as anonymous ids', () => {
    const flagged = Array.from({ length: 20_000 }, () => randomUUID()).filter((id) => findPersonalData(id) !== null);
    expect(flagged).toEqual([]);
  });

  it('stays fast on long hostile strings', () => {
    const started = performance.now();
    for (const text of ['a'.repeat(512), '1 '.repeat(256), '-1'.repeat(256), '%41'.repeat(170), '.@'.repeat(256)]) findPersonalData(text);
    expect(performance.now() - started).toBeLessThan(250);
  });
});

describe('luhn', () => {
  it('accepts valid and refuses invalid check digits', () => {
    expect(luhn('79927398713')).toBe(true);
    expect(luhn('79927398710')).toBe(false);
  });
});

describe('valueMinorUnits', () => {
  it.each([
    ['199.00', 'SEK', 19900],
    ['199.5', 'SEK', 19950],
    ['199', 'SEK', 19900],
    ['0.07', 'EUR', 7],
    ['1990', 'JPY', 1990],
    ['1.234', 'KWD', 1234],
    ['0', 'USD', 0],
    ['0.1', 'USD', 10], // 0.1 is exact here: no float ever touches the amount
    ['90071992547409.91', 'USD', 9007199254740991],
  ])('%s %s → %d', (amount, currency, minor) => {
    expect(valueMinorUnits(amount, currency)).toBe(minor);
  });

  it.each([
    ['1.999', 'SEK'], // more decimals than the currency has
    ['1.5', 'JPY'],
    ['-5.00', 'SEK'],
    ['1e3', 'SEK'],
    ['', 'SEK'],
    ['.50', 'SEK'],
    ['5.', 'SEK'],
    ['10.00', 'XYZ'], // well-formed but not a currency
    ['90071992547409.92', 'USD'], // past a safe integer
  ])('refuses %s %s', (amount, currency) => {
    expect(valueMinorUnits(amount, currency)).toBeNull();
  });
});

describe('AnalyticsBatch', () => {
  it('fails the envelope, not single events, as a whole', () => {
    expect(AnalyticsBatch.safeParse({ events: [] }).success).toBe(false);
    expect(AnalyticsBatch.safeParse({ events: Array.from({ length: 51 }, () => ({})) }).success).toBe(false);
    expect(AnalyticsBatch.safeParse({ events: [], extra: 1 }).success).toBe(false);
    expect(AnalyticsBatch.safeParse([]).success).toBe(false);
    const parsed = AnalyticsBatch.parse({ events: [{ type: 'nope' }, 5, { type: 'page_view', occurredAt: 'x', anonymousId: 'abcdefgh' }] });
    expect(parsed.events).toEqual([
      { ok: false, pointer: '/type' },
      { ok: false, pointer: '' },
      { ok: false, pointer: '/occurredAt' },
    ]);
  });
});

describe('recordAnalyticsEvents', () => {
  let database: Database;
  const now = Date.parse('2026-11-21T12:00:00.000Z');
  const base = { anonymousId: 'anon_12345678', occurredAt: '2026-11-21T11:59:00.000Z' };

  beforeAll(async () => {
    ({ database } = await freshDatabase({ seed: false }));
    await database.insert(sites).values({
      id: 'site_t',
      handle: 't',
      name: 'T',
      defaultMarketId: 'se',
      defaultLocale: 'sv-SE',
      checkoutBaseUrl: 'http://x/checkout',
      createdAt: now,
    });
  });

  it('stores good events in one go and reports the rest by index', async () => {
    const batch = AnalyticsBatch.parse({
      events: [
        { ...base, type: 'product_view', productHandle: 'fjord-ceramic-mug', path: '/products/fjord-ceramic-mug?ref=home' },
        { ...base, type: 'add_to_cart', variantId: 'var_1', quantity: 2, value: { amount: '398.00', currency: 'SEK' } },
        { ...base, type: 'search', query: 'jane@example.com' },
        { ...base, type: 'page_view', path: '/x', color: 'red' },
        { ...base, type: 'page_view', occurredAt: '2026-11-21T12:06:00.000Z' },
        { ...base, type: 'page_view', occurredAt: '2026-11-13T12:00:00.000Z' },
        { ...base, type: 'add_to_cart', value: { amount: '1.999', currency: 'SEK' } },
        { ...base, type: 'experiment_exposure' },
        { ...base, type: 'experiment_exposure', experiment: { id: 'hero-2026', variant: 'b' }, occurredAt: '2026-11-20T23:30:00+01:00' },
        { ...base, type: 'add_to_cart', value: { amount: '1.00', currency: 'SEK', note: 'anything' } },
      ],
    });
    const receipt = await recordAnalyticsEvents(database, { id: 'site_t' }, batch.events, { now });
    expect(receipt).toEqual({
      accepted: 3,
      rejected: [
        { index: 2, code: 'personal_data', pointer: '/events/2/query' },
        { index: 3, code: 'invalid_event', pointer: '/events/3/color' },
        { index: 4, code: 'occurred_at_out_of_range', pointer: '/events/4/occurredAt' },
        { index: 5, code: 'occurred_at_out_of_range', pointer: '/events/5/occurredAt' },
        { index: 6, code: 'invalid_event', pointer: '/events/6/value' },
        { index: 7, code: 'invalid_event', pointer: '/events/7/experiment' },
        { index: 9, code: 'invalid_event', pointer: '/events/9/value/note' },
      ],
    });
    const rows = await database.select().from(analyticsEvents);
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => [r.type, r.day])).toEqual([
      ['product_view', '2026-11-21'],
      ['add_to_cart', '2026-11-21'],
      ['experiment_exposure', '2026-11-20'], // the UTC day of occurredAt
    ]);
    expect(rows[1]!.payload).toEqual({ variantId: 'var_1', quantity: 2, value: { amountMinor: 39800, currency: 'SEK' } });
    expect(rows[2]!.occurredAt).toBe(Date.parse('2026-11-20T22:30:00.000Z'));
    for (const row of rows) {
      expect(row.siteId).toBe('site_t');
      expect(row.receivedAt).toBe(now);
      expect(Object.keys(row.payload)).not.toContain('anonymousId');
    }
  });

  it('stores nothing when every event is rejected', async () => {
    const before = (await database.select().from(analyticsEvents)).length;
    const batch = AnalyticsBatch.parse({ events: [{ ...base, type: 'page_view', path: '/?tel=0701234567' }] });
    const receipt = await recordAnalyticsEvents(database, { id: 'site_t' }, batch.events, { now });
    expect(receipt).toEqual({ accepted: 0, rejected: [{ index: 0, code: 'personal_data', pointer: '/events/0/path' }] });
    expect(await database.select().from(analyticsEvents)).toHaveLength(before);
  });
});
