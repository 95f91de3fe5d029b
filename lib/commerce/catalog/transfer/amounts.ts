import { minorDigits, toMoney } from '../../money';

/** "199.00" in SEK → 19900; null when it has more decimals than the currency has minor units. */
export function parseDecimal(amount: string, currency: string): number | null {
  const digits = minorDigits(currency);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount);
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return null;
  const minor = Number(match[1]! + fraction.padEnd(digits, '0'));
  return Number.isSafeInteger(minor) ? minor : null;
}

export function formatDecimal(minor: number, currency: string): string {
  return toMoney(minor, currency).amount;
}

export { minorDigits };
