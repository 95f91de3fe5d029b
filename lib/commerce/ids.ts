import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Opaque, prefixed identifiers (`cs_…`, `sub_…`): 22 base62 characters, ~131 bits. */
export function newId(prefix: string): string {
  let out = '';
  while (out.length < 22) {
    for (const byte of randomBytes(32)) {
      if (byte < 248 && out.length < 22) out += ALPHABET[byte % 62];
    }
  }
  return `${prefix}_${out}`;
}
