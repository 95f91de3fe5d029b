import { DomainError } from '@/lib/platform/errors';

/** Opaque keyset cursors: base64url of a tagged JSON value, checked on the way back in. */
export function encodeCursor(kind: string, key: string | number): string {
  return Buffer.from(JSON.stringify([kind, key])).toString('base64url');
}

export function decodeCursor<K extends 'string' | 'number'>(
  cursor: string | undefined,
  kind: string,
  keyType: K,
): (K extends 'string' ? string : number) | undefined {
  if (cursor === undefined) return undefined;
  const invalid = () =>
    new DomainError('validation_failed', 'The cursor is not valid for this list.', {
      errors: [{ pointer: '#/query/cursor', code: 'invalid_cursor', detail: 'Use a nextCursor this list returned.' }],
    });
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || parsed[0] !== kind || typeof parsed[1] !== keyType) throw invalid();
  if (keyType === 'number' && !Number.isSafeInteger(parsed[1])) throw invalid();
  if (keyType === 'string' && (parsed[1] as string).length > 200) throw invalid();
  return parsed[1] as K extends 'string' ? string : number;
}
