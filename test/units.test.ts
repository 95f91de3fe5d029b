import { describe, expect, it } from 'vitest';
import { addedTax, includedTax, toMoney } from '@/lib/commerce/money';
import { availabilityStatus, bestStatus, canSell, describeAvailability } from '@/lib/commerce/availability';
import { decodeCursor, encodeCursor } from '@/lib/commerce/cursor';
import { DomainError } from '@/lib/platform/errors';
import { newId, newTimeOrderedId } from '@/lib/platform/ids';
import { zodFieldErrors } from '@/lib/contract/problem-answers';
import { etagMatches, strongEtag } from '@/lib/platform/cache/http';
import { z } from 'zod';

describe('money', () => {
  it.each([
    [19900, 'SEK', '199.00'],
    [5, 'EUR', '0.05'],
    [0, 'USD', '0.00'],
    [1990, 'JPY', '1990'],
    [-1250, 'SEK', '-12.50'],
    [123456789, 'KWD', '123456.789'],
  ])('%i %s → %s', (minor, currency, amount) => {
    expect(toMoney(minor, currency)).toEqual({ amount, currency });
  });

  it('refuses a non-integer amount instead of rounding a float', () => {
    expect(() => toMoney(19.99, 'SEK')).toThrow();
  });

  it('computes included and added tax in integers, rounded half up', () => {
    expect(includedTax(12500, 2500)).toBe(2500); // 125.00 incl. 25% → 25.00
    expect(includedTax(1190, 1900)).toBe(190);
    expect(includedTax(999, 0)).toBe(0);
    expect(addedTax(10000, 875)).toBe(875);
    expect(addedTax(1, 5000)).toBe(1); // 0.5 → 1 (half up)
  });
});

describe('availability mapping', () => {
  const level = (quantity: number, policy: 'deny' | 'preorder' | 'continue' = 'deny') => ({ quantity, lowStockThreshold: 5, policy });
  it.each([
    [level(50), 'in_stock'],
    [level(6), 'in_stock'],
    [level(5), 'low_stock'],
    [level(1), 'low_stock'],
    [level(0), 'out_of_stock'],
    [level(-2), 'out_of_stock'],
    [level(0, 'preorder'), 'preorder'],
    [level(3, 'preorder'), 'low_stock'],
    [level(0, 'continue'), 'in_stock'],
    [null, 'out_of_stock'],
  ] as const)('%j → %s', (input, status) => {
    expect(availabilityStatus(input)).toBe(status);
  });

  it('derives purchasable and canSubscribe from the status alone', () => {
    expect(describeAvailability('out_of_stock')).toEqual({ status: 'out_of_stock', purchasable: false, canSubscribe: true });
    expect(describeAvailability('preorder')).toEqual({ status: 'preorder', purchasable: true, canSubscribe: false });
    expect(describeAvailability('low_stock')).toEqual({ status: 'low_stock', purchasable: true, canSubscribe: false });
  });

  it('sells only what deny-policy stock covers', () => {
    expect(canSell(level(3), 3)).toBe(true);
    expect(canSell(level(3), 4)).toBe(false);
    expect(canSell(level(0, 'preorder'), 10)).toBe(true);
    expect(canSell(null, 1)).toBe(false);
  });

  it('ranks a product by its best variant', () => {
    expect(bestStatus(['out_of_stock', 'preorder', 'low_stock'])).toBe('low_stock');
    expect(bestStatus(['out_of_stock'])).toBe('out_of_stock');
    expect(bestStatus([])).toBe('out_of_stock');
  });
});

describe('cursors', () => {
  it('round-trips a key for the same list', () => {
    expect(decodeCursor(encodeCursor('products', 'linen-tote-bag'), 'products', 'string')).toBe('linen-tote-bag');
    expect(decodeCursor(encodeCursor('collections', 7), 'collections', 'number')).toBe(7);
    expect(decodeCursor(undefined, 'products', 'string')).toBeUndefined();
  });

  it.each([
    ['garbage', 'not base64url JSON'],
    ["' OR 1=1 --", 'SQL-ish'],
    [Buffer.from('{"a":1}').toString('base64url'), 'wrong shape'],
    [encodeCursor('catalog', 'x'), 'another list'],
    [encodeCursor('collections', 'x'), 'wrong key type'],
    [Buffer.from(JSON.stringify(['products', 'x'.repeat(500)])).toString('base64url'), 'oversized key'],
  ])('rejects %s (%s) as validation_failed at #/query/cursor', (cursor) => {
    const kind = cursor.length > 0 ? 'products' : 'x';
    try {
      decodeCursor(cursor, kind, 'string');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).code).toBe('validation_failed');
      expect((e as DomainError).options.errors?.[0]?.pointer).toBe('#/query/cursor');
    }
  });
});

describe('problem pointers', () => {
  it('points into bodies with RFC 6901 escaping and at query parameters with #/query', () => {
    const schema = z.object({ lines: z.array(z.object({ quantity: z.number().int() })), 'a/b~c': z.string() }).strict();
    const result = schema.safeParse({ lines: [{ quantity: 1 }, { quantity: 1.5 }], 'a/b~c': 3, extra: true });
    expect(result.success).toBe(false);
    const pointers = zodFieldErrors(result.error!, 'body')
      .map((e) => e.pointer)
      .sort();
    expect(pointers).toEqual(['/a~1b~0c', '/extra', '/lines/1/quantity']);
    const q = z.object({ limit: z.number() }).safeParse({ limit: 'x' });
    expect(zodFieldErrors(q.error!, 'query')[0]?.pointer).toBe('#/query/limit');
  });
});

describe('etags', () => {
  it('is strong, stable for the same bytes and matches If-None-Match lists and weak forms', () => {
    const tag = strongEtag('{"a":1}');
    expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(strongEtag('{"a":1}')).toBe(tag);
    expect(strongEtag('{"a":2}')).not.toBe(tag);
    expect(etagMatches(`"x", ${tag}`, tag)).toBe(true);
    expect(etagMatches(`W/${tag}`, tag)).toBe(true);
    expect(etagMatches('*', tag)).toBe(true);
    expect(etagMatches('"other"', tag)).toBe(false);
    expect(etagMatches(null, tag)).toBe(false);
  });
});

describe('newId', () => {
  it('is the prefix and 22 base62 characters, never repeated, every character about equally likely', () => {
    const ids = Array.from({ length: 20_000 }, () => newId('cs'));
    for (const id of ids.slice(0, 200)) expect(id).toMatch(/^cs_[0-9A-Za-z]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const counts = new Map<string, number>();
    for (const id of ids) for (const c of id.slice(3)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = (ids.length * 22) / 62; // ≈ 7,100 each
    for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.1);
  });
});

describe('newTimeOrderedId', () => {
  it("has newId's shape, and sorts by time as SQLite compares text (byte order)", () => {
    const times = [0, 61, 62, 1_000, 1_795_667_879_965, 1_795_667_879_966, 1_795_667_880_000, 4_102_444_800_000];
    const ids = times.map((t) => newTimeOrderedId('cs', t));
    for (const id of ids) expect(id).toMatch(/^cs_[0-9A-Za-z]{22}$/);
    const byBytes = [...ids].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(byBytes).toEqual(ids);
    // the time part is exact: 62 ms is "10" in base62
    expect(newTimeOrderedId('cs', 62).slice(3, 11)).toBe('00000010');
  });

  it('has a random part: ids of the same millisecond never repeat, every character about equally likely', () => {
    const ids = Array.from({ length: 20_000 }, () => newTimeOrderedId('sub', 1_795_667_879_965));
    expect(new Set(ids.map((id) => id.slice(0, 12))).size).toBe(1);
    expect(new Set(ids).size).toBe(ids.length);
    const counts = new Map<string, number>();
    for (const id of ids) for (const c of id.slice(12)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = (ids.length * 14) / 62;
    for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.1);
  });
});
