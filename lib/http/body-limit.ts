/**
 * The one reader of request bodies, for the API and the storefront alike: it stops at a
 * limit while the body streams in, so however large a body someone sends (chunked, with
 * no Content-Length, or with a false one), the server never holds more than the limit.
 *
 * Framework-free and without imports of ours, so every layer may use it; each maps
 * BodyTooLarge to its own answer (the API's 413 problem, the shop's own error).
 */

export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`The body may be at most ${limit} bytes.`);
    this.name = 'BodyTooLarge';
  }
}

/**
 * The body's bytes, or BodyTooLarge as soon as it is known to pass `limit`: at once when
 * Content-Length says so, else at the first chunk that takes it past the limit — the rest
 * is never read (the stream is cancelled). No body reads as zero bytes.
 */
export async function readBodyCapped(req: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLarge(limit);
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLarge(limit);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** The body as UTF-8 text under `limit`; null when its bytes are not UTF-8. */
export async function readTextCapped(req: Request, limit: number): Promise<string | null> {
  const bytes = await readBodyCapped(req, limit);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
