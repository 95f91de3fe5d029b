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

function randomChars(count: number): string {
  let out = '';
  while (out.length < count) {
    const byte = randomByte();
    // 248 = 4 × 62: bytes above it are dropped, so every character is equally likely.
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/** Opaque, prefixed identifiers (`prod_…`, `cred_…`): 22 base62 characters, ~131 bits. */
export function newId(prefix: string): string {
  return `${prefix}_${randomChars(LENGTH)}`;
}

const TIME_LENGTH = 8;

/**
 * The same shape as newId, for rows written one per request (checkout sessions, signups):
 * the first 8 characters are the time in milliseconds in base62 (the alphabet is in byte
 * order, so the ids sort by time), the other 14 random (~83 bits). A random key puts every
 * insert on a random page of the table's key index, and of every index that starts with
 * the key (a session's lines), so a commit reads and rewrites pages all over the file; keys
 * that grow with time land on the last few pages, which stay in the cache. A session's id
 * reveals no more than its answer does (its expiry is its creation time plus a fixed TTL).
 */
export function newTimeOrderedId(prefix: string, nowMs: number = Date.now()): string {
  let time = '';
  for (let rest = Math.max(0, Math.floor(nowMs)); time.length < TIME_LENGTH; rest = Math.floor(rest / 62))
    time = ALPHABET[rest % 62] + time;
  return `${prefix}_${time}${randomChars(LENGTH - TIME_LENGTH)}`;
}
