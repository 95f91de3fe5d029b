/**
 * Address rules a real checkout applies, as pure functions: the request schemas use them
 * to validate (422 with a pointer) and the domain uses them to normalise what it stores.
 */
type PostalRule = { pattern: RegExp; example: string; normalise: (code: string) => string };

const compact = (code: string) => code.replace(/\s+/g, '');

const POSTAL_RULES: Record<string, PostalRule> = {
  // Sweden writes "NNN NN"; shoppers often type the five digits without the space.
  SE: { pattern: /^\d{3} ?\d{2}$/, example: '111 22', normalise: (c) => `${compact(c).slice(0, 3)} ${compact(c).slice(3)}` },
  DE: { pattern: /^\d{5}$/, example: '10115', normalise: compact },
  AT: { pattern: /^\d{4}$/, example: '1010', normalise: compact },
  US: { pattern: /^\d{5}(-\d{4})?$/, example: '10001 or 10001-1234', normalise: compact },
};

/** Countries without a rule still get a plausible shape (letters, digits, space, dash). */
const GENERIC: PostalRule = { pattern: /^[A-Z0-9][A-Z0-9 -]{1,9}$/, example: 'a postal code', normalise: (c) => c.replace(/\s+/g, ' ') };

/** The rules in words, for the API's documentation. */
export function postalCodeRulesText(): string {
  const known = Object.entries(POSTAL_RULES).map(([country, rule]) => `${country} \`${rule.pattern.source}\` (e.g. ${rule.example})`);
  return (
    `Checked against the address's country, case and surrounding spaces ignored: ${known.join('; ')}; any other country ` +
    `\`${GENERIC.pattern.source}\`. Stored normalised (SE "11122" → "111 22"; DE, AT and US without spaces).`
  );
}

function ruleFor(country: string): PostalRule {
  return POSTAL_RULES[country.toUpperCase()] ?? GENERIC;
}

/** Null when the postal code fits the country, else a message for the shopper. */
export function postalCodeProblem(country: string, postalCode: string): string | null {
  const rule = ruleFor(country);
  return rule.pattern.test(postalCode.trim().toUpperCase())
    ? null
    : `Not a valid postal code for ${country.toUpperCase()} (e.g. ${rule.example}).`;
}

/** The stored form: SE "11122" → "111 22"; assumes postalCodeProblem() was null. */
export function normalisePostalCode(country: string, postalCode: string): string {
  return ruleFor(country).normalise(postalCode.trim().toUpperCase());
}

/**
 * US addresses name their state (USPS codes: the states, DC, the territories and the armed
 * forces' AA, AE and AP): carriers route by it and sales tax would follow it. Other
 * countries' regions are optional free text.
 */
const US_STATES = new Set(
  (
    'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY ' +
    'DC AS GU MP PR VI AA AE AP'
  ).split(' '),
);

/** Null when the region fits the country, else a message for the shopper. */
export function regionProblem(country: string, region: string | undefined): string | null {
  if (country.toUpperCase() !== 'US') return null;
  if (!region) return 'A US address needs its state (e.g. NY).';
  return US_STATES.has(region.trim().toUpperCase()) ? null : `Not a US state code (e.g. NY).`;
}

/** The stored form: a US state as its upper-case code; assumes regionProblem() was null. */
export function normaliseRegion(country: string, region: string): string {
  return country.toUpperCase() === 'US' ? region.trim().toUpperCase() : region;
}

/** Postal code as a number, for "nearest pickup point" (US ZIP+4 uses the five-digit ZIP). */
export function postalNumber(postalCode: string): number | null {
  const digits = compact(postalCode).split('-')[0]!.replace(/\D/g, '');
  return digits.length > 0 && digits.length <= 9 ? Number(digits) : null;
}

/** E.164-ish: "+46 70-123 45 67" → "+46701234567"; "0046…" counts as "+46…". Null if not a phone number. */
export function normalisePhone(raw: string): string | null {
  let phone = raw.trim().replace(/[\s().-]/g, '');
  if (phone.startsWith('00')) phone = `+${phone.slice(2)}`;
  return /^\+[1-9]\d{6,14}$/.test(phone) ? phone : null;
}
