import { getHeapStatistics } from 'node:v8';
import type { CatalogIssue } from './validate';

/**
 * What one import reads at most. Beyond these the file is refused as soon as the reader
 * gets there, before the parsed catalog could outgrow the heap and crash the process.
 * docs/catalog.md gives the numbers and where they come from.
 */
export type ImportLimits = {
  /** Bytes of the file. */
  fileBytes: number;
  /** Characters of one product's or collection's JSON, or of one CSV row. */
  itemChars: number;
  /** Products and collections in a document; products in a CSV file. */
  items: number;
  /** Rows of a CSV file, the header not counted. */
  csvRows: number;
};

const MB = 1024 * 1024;
const HEAP_STEP = 512 * MB;

/** The limits at a 512 MB heap (`npm run catalog`), measured to leave half the heap free. */
export const BASE_LIMITS: ImportLimits = { fileBytes: 128 * MB, itemChars: 8 * MB, items: 20_000, csvRows: 100_000 };

/**
 * The limits for this process: the catalog-wide ones grow with each whole 512 MB of heap
 * (`--max-old-space-size`), so a bigger catalog needs only a bigger heap, as before.
 * One item's size does not grow: no product needs more than 8 MB.
 */
export function importLimits(heapLimitBytes = getHeapStatistics().heap_size_limit): ImportLimits {
  const steps = Math.max(1, Math.floor(heapLimitBytes / HEAP_STEP));
  return {
    fileBytes: BASE_LIMITS.fileBytes * steps,
    itemChars: BASE_LIMITS.itemChars,
    items: BASE_LIMITS.items * steps,
    csvRows: BASE_LIMITS.csvRows * steps,
  };
}

/** Why the input was refused before it was read to its end: one issue, where it is. */
export class CatalogInputError extends Error {
  constructor(readonly issue: CatalogIssue) {
    super(issue.expected);
  }
}

export const count = (n: number) => n.toLocaleString('en-US');
/** A limit as people read it: `128 MB`, or exactly when it is no whole number of MB. */
export const megabytes = (n: number, unit = 'bytes') => (n % MB === 0 ? `${n / MB} MB` : `${count(n)} ${unit}`);

/**
 * The file's text, chunk by chunk, from its bytes: UTF-8 or refused, never guessed. A
 * lenient decoder turns bad bytes into U+FFFD, which the import would then store, and
 * every later import of the same file would find a change. Counts bytes as they stream,
 * so a file over the limit is refused before it is read whole. Strings (tests, callers that
 * decoded already) pass through, counted.
 */
export async function* decodeCatalogText(input: AsyncIterable<Uint8Array | string>, limits: ImportLimits): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let bytes = 0;
  let line = 1;
  // characters (UTF-8 lead bytes) since the last newline, for the column
  let column = 0;
  let previousTail: Uint8Array = new Uint8Array(0);
  for await (const chunk of input) {
    const size = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    if (bytes + size > limits.fileBytes) {
      throw new CatalogInputError({
        pointer: '',
        line,
        field: '(file)',
        expected: `a file of at most ${megabytes(limits.fileBytes)} (this one goes on past that; split it, or run the command with a bigger heap: docs/catalog.md, "Limits")`,
      });
    }
    if (typeof chunk === 'string') {
      bytes += size;
      yield chunk;
      continue;
    }
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw notUtf8(previousTail, chunk, bytes, line, column, false);
    }
    for (let i = 0; i < chunk.length; i += 1) {
      const b = chunk[i]!;
      if (b === 0x0a) {
        line += 1;
        column = 0;
      } else if ((b & 0xc0) !== 0x80) column += 1;
    }
    bytes += size;
    // the last three bytes read, however small the chunks: an unfinished character is in them
    previousTail = chunk.length >= 3 ? chunk.subarray(chunk.length - 3) : Buffer.concat([previousTail, chunk]).subarray(-3);
    if (text) yield text;
  }
  let rest: string;
  try {
    rest = decoder.decode();
  } catch {
    throw notUtf8(previousTail, new Uint8Array(0), bytes, line, column, true);
  }
  if (rest) yield rest;
}

/** The issue for the first bytes that are not UTF-8: the line, the column and the byte offset in the file. */
function notUtf8(
  previousTail: Uint8Array,
  chunk: Uint8Array,
  bytesBefore: number,
  line: number,
  column: number,
  atEnd: boolean,
): CatalogInputError {
  // bytes of a character the previous chunk began and this one was to finish
  const pending = previousTail.subarray(incompleteFrom(previousTail));
  const joined = new Uint8Array(pending.length + chunk.length);
  joined.set(pending);
  joined.set(chunk, pending.length);
  const at = Math.max(0, firstInvalidUtf8(joined, atEnd));
  if (at < pending.length) {
    // the bad character began in the previous chunk, and its lead byte is already counted
  } else {
    for (let i = pending.length; i < at; i += 1) {
      const b = joined[i]!;
      if (b === 0x0a) {
        line += 1;
        column = 0;
      } else if ((b & 0xc0) !== 0x80) column += 1;
    }
    column += 1;
  }
  const offset = bytesBefore - pending.length + at;
  const shown = [...joined.subarray(at, at + 4)].map((b) => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`).join(' ');
  return new CatalogInputError({
    pointer: '',
    line,
    column,
    field: '(file)',
    // at the end, the only thing the decoder can still refuse is a character cut short
    expected: atEnd
      ? `UTF-8 text (the file ends in the middle of a character, at byte ${count(offset)}: ${shown}; save the file as UTF-8)`
      : `UTF-8 text (byte ${count(offset)} of the file, ${shown}…, is not UTF-8; save the file as UTF-8)`,
  });
}

/** Where a trailing, unfinished UTF-8 sequence starts in `bytes` (its length if there is none). */
function incompleteFrom(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back += 1) {
    const b = bytes[bytes.length - back]!;
    if ((b & 0xc0) === 0x80) continue;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/**
 * The offset where the first ill-formed sequence starts (Unicode, table 3-7: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or -1. A sequence cut short by the end of
 * `bytes` counts only when `atEnd`.
 */
export function firstInvalidUtf8(bytes: Uint8Array, atEnd: boolean): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i += 1;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k += 1) {
      if (i + k >= bytes.length) return atEnd ? i : -1;
      const c = bytes[i + k]!;
      if (k === 1 ? c < lo || c > hi : (c & 0xc0) !== 0x80) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** NUL, and surrogates without their pair: what the database cannot give back as it got it. */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * What is wrong with a text the database could not return unchanged, or null. SQLite
 * keeps a NUL but reads the text back cut there, and stores an unpaired surrogate as
 * U+FFFD: the import would write it on every run and the export would not give it back.
 */
export function unstorableText(text: string): string | null {
  const found = UNSTORABLE.exec(text);
  if (!found) return null;
  const at = `at character ${count(found.index + 1)}`;
  return found[0] === '\u0000'
    ? `text without U+0000 (NUL, ${at}): the database would cut the text there`
    : `text without an unpaired surrogate (\\u${found[0].charCodeAt(0).toString(16).toUpperCase()}, ${at}): it is no character, and the database would store U+FFFD instead`;
}
