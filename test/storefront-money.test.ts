import { describe, expect, it } from 'vitest';
import { sumMoney } from '@/app/(storefront)/_lib/format';

const sek = (amount: string) => ({ amount, currency: 'SEK' });

describe('the cart subtotal (sumMoney)', () => {
  it('adds prices × quantities exactly, in minor units', () => {
    // 0.10 × 3 + 0.20 is 0.5000000000000001 in floating point.
    expect(sumMoney([{ price: sek('0.10'), quantity: 3 }, { price: sek('0.20'), quantity: 1 }])).toEqual(sek('0.50'));
    expect(sumMoney([{ price: sek('199.00'), quantity: 2 }, { price: sek('549.00'), quantity: 1 }])).toEqual(sek('947.00'));
    expect(sumMoney([{ price: sek('0.05'), quantity: 1 }])).toEqual(sek('0.05'));
  });

  it('keeps currencies without minor units and large amounts whole', () => {
    expect(sumMoney([{ price: { amount: '1990', currency: 'JPY' }, quantity: 99 }])).toEqual({ amount: '197010', currency: 'JPY' });
    expect(sumMoney([{ price: sek('99999999.99'), quantity: 99 }])).toEqual(sek('9899999999.01'));
  });

  it('has no answer for nothing, for mixed currencies or for mixed precision', () => {
    expect(sumMoney([])).toBeNull();
    expect(sumMoney([{ price: sek('1.00'), quantity: 1 }, { price: { amount: '1.00', currency: 'EUR' }, quantity: 1 }])).toBeNull();
    expect(sumMoney([{ price: sek('1.00'), quantity: 1 }, { price: sek('1.0'), quantity: 1 }])).toBeNull();
  });
});
