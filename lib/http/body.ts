import { DomainError } from '@/lib/commerce/errors';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads a JSON request body: 415 for another media type, 413 past 64 KiB (without
 * reading more than that), 400 for JSON that does not parse. An empty body reads as {}.
 */
export async function readJsonBody(req: Request): Promise<{ text: string; value: unknown }> {
  const declared = Number(req.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
    throw new DomainError('payload_too_large', `The body may be at most ${MAX_BODY_BYTES} bytes.`);
  }
  const text = await readCapped(req);
  if (text.trim() === '') return { text: '', value: {} };
  const type = (req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new DomainError('unsupported_media_type', 'Send the body as application/json.');
  }
  try {
    return { text, value: JSON.parse(text) };
  } catch {
    throw new DomainError('invalid_json', 'The body is not valid JSON.');
  }
}

async function readCapped(req: Request): Promise<string> {
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw new DomainError('payload_too_large', `The body may be at most ${MAX_BODY_BYTES} bytes.`);
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new DomainError('invalid_json', 'The body is not valid UTF-8 JSON.');
  }
}
