import { describe, expect, it } from 'vitest';
import { formatCountry, formatLanguage, formatMoney, sumMoney } from '@/app/(storefront)/_lib/format';

const sek = (amount: string) => ({ amount, currency: 'SEK' });

describe('the cart subtotal (sumMoney)', () => {
  it('adds prices × quantities exactly, in minor units', () => {
    // 0.10 × 3 + 0.20 is 0.5000000000000001 in floating point.
    expect(
      sumMoney([
        { price: sek('0.10'), quantity: 3 },
        { price: sek('0.20'), quantity: 1 },
      ]),
    ).toEqual(sek('0.50'));
    expect(
      sumMoney([
        { price: sek('199.00'), quantity: 2 },
        { price: sek('549.00'), quantity: 1 },
      ]),
    ).toEqual(sek('947.00'));
    expect(sumMoney([{ price: sek('0.05'), quantity: 1 }])).toEqual(sek('0.05'));
  });

  it('keeps currencies without minor units and large amounts whole', () => {
    expect(sumMoney([{ price: { amount: '1990', currency: 'JPY' }, quantity: 99 }])).toEqual({ amount: '197010', currency: 'JPY' });
    expect(sumMoney([{ price: sek('99999999.99'), quantity: 99 }])).toEqual(sek('9899999999.01'));
  });

  it('has no answer for nothing, for mixed currencies or for mixed precision', () => {
    expect(sumMoney([])).toBeNull();
    expect(
      sumMoney([
        { price: sek('1.00'), quantity: 1 },
        { price: { amount: '1.00', currency: 'EUR' }, quantity: 1 },
      ]),
    ).toBeNull();
    expect(
      sumMoney([
        { price: sek('1.00'), quantity: 1 },
        { price: sek('1.0'), quantity: 1 },
      ]),
    ).toBeNull();
  });
});

describe('formatting with formatters made once per locale and currency', () => {
  it('answers each locale and currency as Intl does, however often and in whatever order asked', () => {
    const cases: [string, string, string][] = [
      ['199.00', 'SEK', 'sv-SE'],
      ['199.00', 'EUR', 'de-DE'],
      ['199.00', 'SEK', 'en-SE'],
      ['1990', 'JPY', 'en-US'],
      ['0.50', 'EUR', 'sv-SE'],
    ];
    for (let round = 0; round < 2; round += 1) {
      for (const [amount, currency, locale] of cases) {
        const expected = new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount as `${number}`);
        expect(formatMoney({ amount, currency }, locale)).toBe(expected);
      }
    }
    expect(formatCountry('DE', 'sv-SE')).toBe(new Intl.DisplayNames(['sv-SE'], { type: 'region' }).of('DE'));
    expect(formatLanguage('de-DE', 'en-SE')).toBe(new Intl.DisplayNames(['en-SE'], { type: 'language' }).of('de'));
  });

  it('falls back to the plain amount for a currency Intl does not take, and keeps nothing for it', () => {
    expect(formatMoney({ amount: '5.00', currency: 'NOPE1' }, 'en-US')).toBe('5.00 NOPE1');
    expect(formatMoney({ amount: '5.00', currency: 'USD' }, 'en-US')).toBe('$5.00');
  });
});
