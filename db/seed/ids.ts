import { createHash } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Every seeded timestamp is this base plus an offset, so two seeds are byte-identical. */
export const SEED_BASE_TIME = Date.UTC(2026, 0, 15);
export const HOUR_MS = 3_600_000;

/**
 * Deterministic, opaque, type-prefixed id: 20 base62 characters of sha256(parts).
 * The same parts always give the same id; the parts are never readable from it.
 */
export function seedId(prefix: string, ...parts: (string | number)[]): string {
  const digest = createHash('sha256').update(parts.join('\u0000')).digest();
  let out = '';
  for (let i = 0; i < 20; i += 1) out += BASE62[(digest[i] ?? 0) % 62];
  return `${prefix}_${out}`;
}

/** FNV-1a: a cheap 32-bit hash to seed the PRNG from a key. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small, fast, seedable PRNG (integers only leave it). */
export function prng(seed: number | string): () => number {
  let a = typeof seed === 'string' ? hash32(seed) : seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [min, max] from a PRNG. */
export function randInt(next: () => number, min: number, max: number): number {
  return min + Math.floor(next() * (max - min + 1));
}

/** Lowercase-kebab ASCII handle: "Fjäll Merino Beanie" → "fjall-merino-beanie". */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
