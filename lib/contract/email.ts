import 'zod-openapi';
import { z } from 'zod';
import { domainToASCII } from 'node:url';

/** RFC 5321: an address of at most 254 characters (a path of 256 minus the angle brackets). */
export const MAX_EMAIL_LENGTH = 254;

// RFC 5322 dot-atom local part (no quoted strings, no comments: nobody legitimately signs up with them).
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
// A DNS name after IDNA: labels of letters, digits and inner hyphens, and a non-numeric top level.
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The one form an address is stored and compared in, or null when it is not one.
 *
 * Trimmed; the domain lowercased and, if internationalised, turned into its ASCII
 * (punycode) form so `Müller.de` and `xn--mller-kva.de` are one address. The local part
 * is lowercased too: RFC 5321 lets a mailbox be case-sensitive, but no mail provider in
 * practice is, and keeping case would let `Anna@x.se` and `anna@x.se` become two
 * subscriptions that both get a confirmation mail. Local parts are ASCII only (no
 * SMTPUTF8), so what we store is always deliverable by an ordinary mail worker.
 */
export function normaliseEmail(input: string): string | null {
  const trimmed = input.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_EMAIL_LENGTH) return null;
  const at = trimmed.lastIndexOf('@');
  if (at <= 0 || at === trimmed.length - 1) return null;
  const local = trimmed.slice(0, at);
  const rawDomain = trimmed.slice(at + 1);
  if (local.length > 64 || !LOCAL_PART.test(local)) return null;
  // domainToASCII lowercases, applies IDNA/UTS 46 and answers '' for what is not a domain.
  const domain = domainToASCII(rawDomain.replace(/\.$/, ''));
  if (!domain || domain.length > 253) return null;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^[0-9]+$/.test(labels.at(-1)!)) return null;
  const address = `${local.toLowerCase()}@${domain}`;
  return address.length <= MAX_EMAIL_LENGTH ? address : null;
}

/**
 * Every e-mail field of the API (signups, checkout sessions): one rule, so an address the
 * newsletter takes is never refused at checkout. The answer is the normalised address.
 */
export const Email = z
  .string()
  .max(MAX_EMAIL_LENGTH + 64, `At most ${MAX_EMAIL_LENGTH} characters.`)
  .transform((value, ctx) => {
    const address = normaliseEmail(value);
    if (address === null) {
      ctx.issues.push({ code: 'invalid_format', format: 'email', input: value, message: 'Not a valid e-mail address.' });
      return z.NEVER;
    }
    return address;
  })
  .meta({
    id: 'Email',
    description:
      `An e-mail address of at most ${MAX_EMAIL_LENGTH} characters, surrounding white space ignored. The local part ` +
      "(at most 64 characters) is an RFC 5322 dot-atom of ASCII letters, digits and ``!#$%&'*+/=?^_`{|}~-``; quoted " +
      'local parts are not accepted. The domain is a DNS name of at least two labels, internationalised names ' +
      'included (`kim@bücher.de`). The address is stored lowercased, with the domain in its ASCII (punycode) form, ' +
      'and answered in that form.',
    example: 'anna.svensson@example.se',
    override: { type: 'string', format: 'idn-email', maxLength: MAX_EMAIL_LENGTH + 64 },
  });
