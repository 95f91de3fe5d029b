import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const LENGTH = 22;

// Random bytes are drawn from the CSPRNG 4 KiB at a time and each byte is used once, as
// crypto.randomUUID does: one call per ~180 ids instead of one per id.
const pool = Buffer.alloc(4096);
let next = pool.length;

function randomByte(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++]!;
}

/** Opaque, prefixed identifiers (`cs_…`, `sub_…`): 22 base62 characters, ~131 bits. */
export function newId(prefix: string): string {
  let out = '';
  while (out.length < LENGTH) {
    const byte = randomByte();
    // 248 = 4 × 62: bytes above it are dropped, so every character is equally likely.
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return `${prefix}_${out}`;
}
