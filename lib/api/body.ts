import { DomainError } from '@/lib/platform/errors';
import { BodyTooLarge, readTextCapped } from '@/lib/http/body-limit';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads a JSON request body: 413 past 64 KiB (without reading more than that, chunked or
 * not), then 415 for another media type, then 400 for bytes that are not UTF-8 or JSON that
 * does not parse. An empty
 * body reads as {}.
 */
export async function readJsonBody(req: Request): Promise<{ text: string; value: unknown }> {
  let text: string | null;
  try {
    text = await readTextCapped(req, MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLarge) throw new DomainError('payload_too_large', `The body may be at most ${MAX_BODY_BYTES} bytes.`);
    // The sender hung up halfway: nobody reads the answer, and it is no fault of ours to log.
    if (req.signal.aborted || isAborted(error)) throw new DomainError('invalid_json', 'The body ended before it was complete.');
    throw error;
  }
  if (text !== null && text.trim() === '') return { text: '', value: {} };
  const [rawType = '', ...params] = (req.headers.get('content-type') ?? '').split(';');
  const type = rawType.trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new DomainError('unsupported_media_type', 'Send the body as application/json.');
  }
  // The body is read as UTF-8 (JSON's own encoding); a sender that says otherwise is not understood.
  const charset = params.map((p) => /^\s*charset\s*=\s*"?([^";\s]*)"?\s*$/i.exec(p)?.[1]).find((c) => c !== undefined);
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
    throw new DomainError('unsupported_media_type', `Send JSON as UTF-8, not ${charset.slice(0, 40)}.`);
  }
  if (text === null) throw new DomainError('invalid_json', 'The body is not valid UTF-8 JSON.');
  try {
    return { text, value: JSON.parse(text) };
  } catch {
    throw new DomainError('invalid_json', 'The body is not valid JSON.');
  }
}

/** Node's "aborted" (ECONNRESET) from a request stream whose sender went away mid-body. */
function isAborted(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    error instanceof Error && (code === 'ECONNRESET' || code === 'ABORT_ERR' || error.message === 'aborted' || error.name === 'AbortError')
  );
}
