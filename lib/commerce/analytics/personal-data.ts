/**
 * Heuristics that keep personal data out of the analytics store. They look for what
 * people actually paste into URLs and search boxes — e-mail addresses, phone numbers,
 * payment card numbers — in every form a string may arrive in (as sent, URL-decoded,
 * form-decoded), while leaving the ordinary digits of a shop alone: SKUs like
 * `MUG-001-BLU`, prices, ISO dates, handles with years in them, UUIDs, epoch times.
 */
export type PersonalDataKind = 'email' | 'phone' | 'card';

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/u;

/** Runs of digits and the separators people write numbers with. */
const NUMBER_RUN = /[+(]*\d[\d ().-]*/g;
const ALNUM = /[\p{L}\p{N}]/u;
const MAX_GROUPS_PER_CANDIDATE = 8;

/** The first kind of personal data found in `value`, or null. */
export function findPersonalData(value: string): PersonalDataKind | null {
  for (const variant of readings(value)) {
    if (variant.includes('@') && EMAIL.test(variant)) return 'email';
    const found = /\d/.test(variant) ? findNumber(variant) : null;
    if (found) return found;
  }
  return null;
}

/** The string as sent, percent-decoded (up to three layers deep) and form-decoded (`+` is a space). */
export function readings(value: string): string[] {
  const out = new Set<string>([value.normalize('NFKC')]);
  let decoded = value;
  for (let i = 0; i < 3; i++) {
    const next = percentDecode(decoded);
    if (next === decoded) break;
    decoded = next;
    out.add(decoded.normalize('NFKC'));
  }
  out.add(percentDecode(value.replaceAll('+', ' ')).normalize('NFKC'));
  return [...out];
}

/** Decodes each well-formed %XX run and leaves broken ones as they are, instead of throwing. */
function percentDecode(value: string): string {
  return value.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

function findNumber(text: string): PersonalDataKind | null {
  for (const match of text.matchAll(NUMBER_RUN)) {
    // A run is split at whitespace into groups; a phone or card number is a stretch of consecutive groups.
    const groups = [...match[0].matchAll(/\S+/g)].map((g) => ({ start: match.index + g.index, end: match.index + g.index + g[0].length }));
    for (let i = 0; i < groups.length; i++) {
      for (let j = i; j < Math.min(groups.length, i + MAX_GROUPS_PER_CANDIDATE); j++) {
        const kind = classify(text, groups[i]!.start, groups[j]!.end);
        if (kind) return kind;
      }
    }
  }
  return null;
}

function classify(text: string, start: number, rawEnd: number): PersonalDataKind | null {
  let end = rawEnd;
  while (end > start && /[().-]/.test(text[end - 1]!) && !(text[end - 1] === ')' && text.slice(start, end).includes('('))) end--;
  const candidate = text.slice(start, end);
  const digits = candidate.replace(/\D/g, '');
  if (isCard(candidate, digits) && !glued(text, start, end, false)) return 'card';
  if (isPhone(candidate, digits) && !glued(text, start, end, true)) return 'phone';
  return null;
}

/**
 * A number that is part of a word (`abc0701234567`, `0701234567x`) is not taken for a
 * phone or card. For phones, one joined through a dash or dot (`mug-0701234567`,
 * `a716-0812-3456`, handles and UUIDs) is not either; for cards it still is.
 */
function glued(text: string, start: number, end: number, throughSeparator: boolean): boolean {
  const before = text[start - 1] ?? '';
  const after = text[end] ?? '';
  if (ALNUM.test(before) || ALNUM.test(after)) return true;
  if (!throughSeparator) return false;
  return (/[-.]/.test(before) && ALNUM.test(text[start - 2] ?? '')) || (/[-.]/.test(after) && ALNUM.test(text[end + 1] ?? ''));
}

/**
 * 13–19 digits, plain or grouped the way cards are printed (4-4-4-4, 4-4-4-4-3, Amex
 * 4-6-5, Diners 4-6-4) with spaces or dashes, a card-network first digit (2–6), passing
 * Luhn. The grouping rule is what keeps UUIDs (8-4-4-4-12) out.
 */
function isCard(candidate: string, digits: string): boolean {
  if (digits.length < 13 || digits.length > 19) return false;
  if (!/^\d[\d -]*\d$/.test(candidate) || /[ -]{2}/.test(candidate)) return false;
  const groups = candidate.split(/[ -]/).map((g) => g.length);
  const printed = groups.length === 1 || groups.slice(0, -1).every((n) => n === 4) || /^4,6,[45]$/.test(groups.join(','));
  if (!printed) return false;
  // 1… are epoch milliseconds and most order numbers; 7–9… are EAN/ISBN barcodes; no major network issues them.
  if (!/^[2-6]/.test(digits) || /^(\d)\1+$/.test(digits)) return false;
  return luhn(digits);
}

export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const DATE_SHAPES = [/^\d{1,2}[-. ]\d{1,2}[-. ]\d{2,4}$/, /^\d{4}[-. ]\d{1,2}[-. ]\d{1,2}$/];

function isPhone(candidate: string, digits: string): boolean {
  if (!/\d$|\d\)$/.test(candidate)) return false;
  const separated = /[ ().-]/.test(candidate);
  // +46 70 123 45 67, +1 (555) 123-4567, +46701234567
  if (candidate.startsWith('+')) return /^\+\(?\d/.test(candidate) && digits.length >= 8 && digits.length <= 15;
  // (555) 123-4567, (08) 123 456 78
  if (candidate.startsWith('(')) return /^\(\d{2,4}\) ?\d[\d .-]*\d$/.test(candidate) && digits.length >= 7 && digits.length <= 11;
  if (DATE_SHAPES.some((shape) => shape.test(candidate))) return false;
  // 0046 70 123 45 67 (international prefix written with zeros)
  if (/^00[1-9]/.test(digits)) return separated && digits.length >= 10 && digits.length <= 15;
  // 070-123 45 67, 08-123 456 78, 0701234567 (national trunk prefix)
  if (/^0[1-9]/.test(digits)) return separated ? digits.length >= 8 && digits.length <= 11 : digits.length >= 9 && digits.length <= 11;
  // 555-123-4567, 555.123.4567, 555 123 4567
  return /^\d{3}[ .-]\d{3}[ .-]\d{4}$/.test(candidate);
}
