import { isIP } from 'node:net';

/**
 * Heuristics that keep personal data out of the analytics store. They look for what
 * people actually paste into URLs and search boxes — e-mail addresses, phone numbers,
 * payment card numbers, IP addresses, national identity numbers — in every form a string
 * may arrive in (as sent, in any script's digits or with invisible characters inside,
 * URL-decoded however many times, form-decoded, HTML entities,
 * \u escapes, base64, "jane (at) example (dot) com"), while leaving the ordinary digits of
 * a shop alone: SKUs like `MUG-001-BLU`, prices, ISO dates, handles with years in them,
 * UUIDs, epoch times, version numbers. test/analytics.test.ts measures both sides on a
 * corpus of personal data and of ordinary paths, UTM parameters and search terms.
 */
export type PersonalDataKind = 'email' | 'phone' | 'card' | 'ip_address' | 'national_id';

// Spaces around the @ (`jane @ example.com`) are how people write an address to keep it from robots, or mistype it.
const EMAIL = /[\p{L}\p{N}._%+-]+\s{0,3}@\s{0,3}[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/u;

/** Runs of digits and the separators people write numbers with. */
const NUMBER_RUN = /[+(]*\d[\d ().-]*/g;
const ALNUM = /[\p{L}\p{N}]/u;
const MAX_GROUPS_PER_CANDIDATE = 8;

/** How far decoding goes: every string gets at most this many readings, this many layers deep. */
const MAX_READINGS = 48;
const MAX_DEPTH = 8;

/** The first kind of personal data found in `value`, or null. */
export function findPersonalData(value: string): PersonalDataKind | null {
  for (const variant of readings(value)) {
    const found = findIn(variant);
    if (found) return found;
  }
  return null;
}

function findIn(text: string): PersonalDataKind | null {
  if (text.includes('@') && EMAIL.test(text)) return 'email';
  if (text.includes(':') && hasIpv6(text)) return 'ip_address';
  if (!/\d/.test(text)) return null;
  if (hasIpv4(text)) return 'ip_address';
  const numbers = text.includes('=') ? withoutClickIds(text) : text;
  if (hasNationalId(numbers)) return 'national_id';
  if (SLASH_PHONE.test(numbers)) return 'phone';
  return findNumber(numbers);
}

/**
 * Click ids that mail and ad platforms append to links, by parameter name, with the shape
 * each platform issues. Some are short enough to read as a number: a Mailchimp `mc_eid`
 * or `mc_cid` is 10 hex digits, and the all-digit ones that start with 0 look like a
 * phone number; a Yandex `yclid` is up to 20 digits, and some pass Luhn like a card.
 */
const CLICK_IDS = new Map<string, RegExp>([
  ['mc_eid', /^[0-9a-f]{10}$/],
  ['mc_cid', /^[0-9a-f]{10}$/],
  ['yclid', /^\d{1,20}$/],
]);
const QUERY_PARAM = /(?<=^|[?&;])([A-Za-z_]+)=([^&#;\s]*)/g;

/**
 * The text with the values of those parameters blanked, when they have their platform's
 * shape, for the number screens only: an e-mail or IP address in one is still found.
 */
function withoutClickIds(text: string): string {
  return text.replace(QUERY_PARAM, (whole, name: string, value: string) => (CLICK_IDS.get(name)?.test(value) ? `${name}=` : whole));
}

/**
 * The string as sent and as every decoding of it reads, breadth first: percent-decoding
 * (any number of layers, up to MAX_DEPTH), form-decoding (`+` is a space), HTML entities,
 * `\u0040`-style escapes, base64 runs, and spelled-out `@` and `.` — each applied to what
 * the others produced, so `%26%2364%3B` or a base64 of a percent-encoded address is read
 * too. Bounded: at most MAX_READINGS strings.
 */
export function readings(value: string): string[] {
  const out = new Set<string>();
  const queue: [string, number][] = [[canonical(value), 0]];
  while (queue.length > 0 && out.size < MAX_READINGS) {
    const [text, depth] = queue.shift()!;
    if (out.has(text)) continue;
    out.add(text);
    if (depth >= MAX_DEPTH) continue;
    for (const decode of DECODINGS) {
      const next = decode(text);
      if (next !== text && !out.has(next)) queue.push([canonical(next), depth + 1]);
    }
  }
  return [...out];
}

/**
 * What a string says, read the way a person reads it: compatibility forms folded (NFKC:
 * full-width ＠ and ４, ligatures), invisible format characters dropped (a zero-width space
 * or word joiner inside an address), and every script's decimal digits read as 0–9 (٠٧٠ is
 * 070).
 */
function canonical(text: string): string {
  const folded = text.normalize('NFKC');
  if (/^[\x00-\x7f]*$/.test(folded)) return folded;
  return folded.replace(FORMAT, '').replace(OTHER_DIGIT, digitValue);
}

const FORMAT = /\p{Cf}/gu;
const OTHER_DIGIT = /(?![0-9])\p{Nd}/gu;
const IS_DIGIT = /^\p{Nd}$/u;

/**
 * A decimal digit's value: Unicode encodes every script's digits as one run from 0 to 9, so
 * it is the digit's distance from the start of its run (runs that touch are whole tens).
 */
function digitValue(digit: string): string {
  const code = digit.codePointAt(0)!;
  let back = 0;
  while (back < 60 && IS_DIGIT.test(String.fromCodePoint(code - back - 1))) back += 1;
  return String(back % 10);
}

const DECODINGS: ((text: string) => string)[] = [
  percentDecode,
  (text) => (text.includes('+') ? percentDecode(text.replaceAll('+', ' ')) : text),
  decodeEntities,
  decodeEscapes,
  decodeBase64Runs,
  spelledOut,
];

/** Decodes each well-formed %XX run and leaves broken ones as they are, instead of throwing. */
function percentDecode(value: string): string {
  if (!value.includes('%')) return value;
  return value.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

const NAMED_ENTITIES: Record<string, string> = {
  commat: '@',
  period: '.',
  amp: '&',
  plus: '+',
  nbsp: ' ',
  lpar: '(',
  rpar: ')',
  hyphen: '-',
  dash: '-',
  num: '#',
  colon: ':',
  sol: '/',
  percnt: '%',
};

/** `&#64;`, `&#x40;`, `&commat;` and the like. */
function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(/&(#\d{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z]{2,8});?/g, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** `\u0040`, `\u{40}`, `\x40`. */
function decodeEscapes(value: string): string {
  if (!value.includes('\\')) return value;
  return value.replace(
    /\\u\{([0-9A-Fa-f]{1,6})\}|\\u([0-9A-Fa-f]{4})|\\x([0-9A-Fa-f]{2})/g,
    (whole, braced?: string, u4?: string, x2?: string) => {
      const code = parseInt((braced ?? u4 ?? x2)!, 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    },
  );
}

/** Runs long enough to hide an address or a number (`a@b.se` is 8 characters, 12 in base64). */
const BASE64_RUN = /[A-Za-z0-9+/_-]{12,}={0,2}/g;
const MAX_BASE64_RUNS = 16;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Each base64 run (standard or URL alphabet, padded or not) replaced by what it decodes to,
 * when that is text: valid UTF-8 without control characters, which random ids, tokens and
 * click ids almost never decode to. A run that does not decode to text stays as it is; so
 * does each `/`-separated part tried on its own (a path segment carrying a base64 value).
 */
function decodeBase64Runs(value: string): string {
  let runs = 0;
  return value.replace(BASE64_RUN, (run) => {
    if (runs++ >= MAX_BASE64_RUNS) return run;
    const whole = base64Text(run);
    if (whole !== null) return whole;
    if (!run.includes('/')) return run;
    return run
      .split('/')
      .map((part) => (part.length >= 12 ? (base64Text(part) ?? part) : part))
      .join('/');
  });
}

function base64Text(run: string): string | null {
  const body = run.replace(/=+$/, '');
  if (body.length % 4 === 1) return null;
  if (/[+/]/.test(body) && /[-_]/.test(body)) return null; // two alphabets at once: not base64
  let text: string;
  try {
    text = utf8.decode(Buffer.from(body, 'base64'));
  } catch {
    return null;
  }
  return text.length > 0 && !/[\p{Cc}\p{Cs}\uFFFD]/u.test(text) ? text : null;
}

/**
 * `jane(at)example(dot)com`, `jane [at] example [dot] com`, and `jane at example dot com`
 * (the spaced words only together: "coffee at home" is a search, not an address).
 */
function spelledOut(value: string): string {
  let text = value.replace(/\s*[([{<]\s*at\s*[)\]}>]\s*/gi, '@').replace(/\s*[([{<]\s*dot\s*[)\]}>]\s*/gi, '.');
  if (/\sat\s/i.test(text) && /\sdot\s/i.test(text)) text = text.replace(/\s+at\s+/gi, '@').replace(/\s+dot\s+/gi, '.');
  return text;
}

/** Dotted quads not glued to letters, digits or further dots (`v2.3.10.4` and `1.2.3.4.5` are versions). */
const IPV4 = /(?<![\p{L}\p{N}.])(?:\d{1,3}\.){3}\d{1,3}(?![\p{L}\p{N}]|\.\d)/gu;

function hasIpv4(text: string): boolean {
  for (const match of text.matchAll(IPV4)) if (isIP(match[0]) === 4) return true;
  return false;
}

/** Runs of hex digits and colons, not glued to other letters or digits. */
const IPV6_RUN = /(?<![\p{L}\p{N}])[0-9A-Fa-f:]{3,39}(?![\p{L}\p{N}])/gu;

/**
 * An IPv6 address with at least two non-empty groups (`2001:db8::7`, `fe80::1`), which
 * times (`10:30:00`) and MAC addresses are not; `::` or `::1` alone is no one's address.
 */
function hasIpv6(text: string): boolean {
  for (const match of text.matchAll(IPV6_RUN)) {
    const run = match[0];
    if (run.split(':').filter(Boolean).length >= 2 && isIP(run) === 6) return true;
  }
  return false;
}

/**
 * Swedish personal identity and co-ordination numbers: YYYYMMDD-NNNN, YYMMDD-NNNN (`+` for
 * the over-100s) or the same without the separator. With a separator the birth-date shape
 * is enough (people type made-up check digits too); without one the check digit must hold,
 * which keeps order numbers and epoch times out. A four-digit year is 1900 to five years
 * ago: a reference with today's date in it (`20261121-0042`) is not a shopper.
 */
// Not a segment of a longer hyphenated token: a UUID can begin `19280229-7907-…`.
const NATIONAL_ID = /(?<![\p{L}\p{N}]|[\p{L}\p{N}]-)((?:19|20)\d{2}|\d{2})(\d{2})(\d{2})([-+]?)(\d{4})(?![\p{L}\p{N}]|-[\p{L}\p{N}])/gu;

function hasNationalId(text: string): boolean {
  for (const match of text.matchAll(NATIONAL_ID)) {
    const [, year = '', month = '', day = '', separator = '', serial = ''] = match;
    const m = Number(month);
    const d = Number(day);
    if (m < 1 || m > 12 || !((d >= 1 && d <= 31) || (d >= 61 && d <= 91))) continue;
    if (year.length === 4 && (Number(year) < 1900 || Number(year) > new Date().getUTCFullYear() - 5)) continue;
    if (separator || luhn(`${year.slice(-2)}${month}${day}${serial}`)) return true;
  }
  return false;
}

/** `070/1234567`, `08/123456`: a trunk prefix and a number, written with a slash. */
const SLASH_PHONE = /(?<![\p{L}\p{N}/])0\d{1,4}\/\d{5,8}(?![\p{L}\p{N}/])/u;

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
 * 4-6-5, Diners 4-6-4) with spaces, dashes or dots, a card-network first digit (2–6),
 * passing Luhn. The grouping rule is what keeps UUIDs (8-4-4-4-12) out.
 */
function isCard(candidate: string, digits: string): boolean {
  if (digits.length < 13 || digits.length > 19) return false;
  if (!/^\d[\d .-]*\d$/.test(candidate) || /[ .-]{2}/.test(candidate)) return false;
  const groups = candidate.split(/[ .-]/).map((g) => g.length);
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

/** A GTIN-12, -13 or -14 barcode (UPC, EAN) whose check digit holds. */
function isGtin(digits: string): boolean {
  if (digits.length < 12 || digits.length > 14) return false;
  let sum = 0;
  for (let i = 1; i < digits.length; i++) sum += (digits.charCodeAt(digits.length - 1 - i) - 48) * (i % 2 === 1 ? 3 : 1);
  return (10 - (sum % 10)) % 10 === digits.charCodeAt(digits.length - 1) - 48;
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
  // 0046 70 123 45 67, 0046701234567 (the international prefix written with zeros, as + is
  // dialled): written together it needs a country code and a subscriber number, 11 digits at
  // least. US and Canadian barcodes written as EAN-13 (0036000291452) start with 00 too: their
  // check digit tells them apart (and holds for one such phone number in ten).
  if (/^00[1-9]/.test(digits))
    return separated ? digits.length >= 10 && digits.length <= 15 : digits.length >= 11 && digits.length <= 15 && !isGtin(digits);
  // 070-123 45 67, 08-123 456 78, 0701234567 (national trunk prefix)
  if (/^0[1-9]/.test(digits)) return separated ? digits.length >= 8 && digits.length <= 11 : digits.length >= 9 && digits.length <= 11;
  // 555-123-4567, 555.123.4567, 555 123 4567
  return /^\d{3}[ .-]\d{3}[ .-]\d{4}$/.test(candidate);
}
