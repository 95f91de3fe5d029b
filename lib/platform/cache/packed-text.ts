import { deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Texts kept compressed in memory, for a cache that holds many similar answers (every
 * product of a catalog): raw DEFLATE from node:zlib, with a preset dictionary the packer
 * learns from the first texts it is given. Answers of one shop share most of their bytes
 * (field names, the origin of every link, currencies, option names, the wording of its
 * descriptions), so a dictionary of a dozen of them packs the rest ~6× where DEFLATE alone
 * manages ~3×. Unpacking one answer costs ~10 µs (docs/performance.md).
 *
 * The packed bytes are kept as a one-byte ("latin1") string: it lives in the heap at one
 * byte a byte, with no backing store and no pooled slab behind it to pin.
 */
export type PackedText = {
  readonly bytes: string;
  /** The text's length in UTF-8: unpacking writes into one buffer of exactly that size. */
  readonly length: number;
  /** The dictionary it was packed with (null: packed before there was one). */
  readonly dictionary: Buffer | null;
};

/** DEFLATE looks back at most 32 KB, so a longer dictionary would only hold memory. */
const WINDOW = 32 * 1024;

export class TextPacker {
  private dictionary: Buffer | null = null;
  private sample: string[] = [];
  private sampleLength = 0;

  /** `sampleBytes`: how much text to learn the dictionary from (at most DEFLATE's window). */
  constructor(private readonly sampleBytes = 24 * 1024) {}

  pack(text: string): PackedText {
    const dictionary = this.dictionary;
    const bytes = deflateRawSync(text, dictionary ? { dictionary } : {}).toString('latin1');
    if (!dictionary) this.learn(text);
    return { bytes, length: Buffer.byteLength(text), dictionary };
  }

  unpack(packed: PackedText): string {
    const input = Buffer.from(packed.bytes, 'latin1');
    // Without a chunk size zlib writes into 16 KB buffers, garbage that waits for the collector.
    const chunkSize = Math.max(64, packed.length);
    return inflateRawSync(input, packed.dictionary ? { dictionary: packed.dictionary, chunkSize } : { chunkSize }).toString('utf8');
  }

  /** The heap a packed text takes: its bytes, the string's header and the record. */
  static weight(packed: PackedText): number {
    return packed.bytes.length + 48;
  }

  private learn(text: string): void {
    this.sample.push(text);
    this.sampleLength += text.length;
    if (this.sampleLength < this.sampleBytes) return;
    // DEFLATE finds a match at a short distance cheaper: the latest texts go last.
    const joined = Buffer.from(this.sample.join(''), 'utf8');
    this.dictionary = Buffer.from(joined.subarray(Math.max(0, joined.length - WINDOW)));
    this.sample = [];
  }
}
