import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, type Database } from '@/db';
import {
  catalogDocumentText,
  documentSource,
  exportCatalog,
  importCatalog,
  parseCatalogDocument,
  readCatalogDocument,
  readShopifyCsv,
  type CatalogIssue,
} from '@/lib/commerce/catalog/transfer';
import { BASE_LIMITS, firstInvalidUtf8, importLimits, type ImportLimits } from '@/lib/commerce/catalog/transfer/input';
import type { CatalogDocument } from '@/lib/contract/catalog-document';
import { freshDatabase } from './support/database';

// What the import reads before it meets the shop: bytes that must be UTF-8, texts the
// database can give back unchanged, and files within the documented limits.
// test/catalog-limits.test.ts runs the command itself on files beyond the limits.

let database: Database;
let dir: string;
let original: string;

beforeAll(async () => {
  ({ database, dir } = await freshDatabase());
  original = await catalogDocumentText(await exportCatalog(database, 'demo'));
});

afterAll(() => {
  closeDatabase(database);
  rmSync(dir, { recursive: true, force: true });
});

/** `bytes` in pieces of `size`, as a file stream gives them. */
function pieces(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

const issuesOf = (result: { ok: boolean }) => (result as unknown as { issues: CatalogIssue[] }).issues;

/** Line, column (in characters) and byte offset of `offset` in `bytes`, counted independently of the reader. */
function whereIs(bytes: Buffer, offset: number) {
  const before = bytes.subarray(0, offset);
  const lineStart = before.lastIndexOf(0x0a) + 1;
  return {
    line: before.toString('latin1').split('\n').length,
    column: [...before.subarray(lineStart).toString('utf8')].length + 1,
    offset,
  };
}

describe('a file that is not UTF-8', () => {
  // Latin-1 "Café": the é is the single byte 0xE9, which a lenient decoder turns into U+FFFD
  const latin1 = () => {
    const text = Buffer.from(original);
    const at = text.indexOf('"title": "') + '"title": "'.length + 2;
    return { bytes: Buffer.concat([text.subarray(0, at), Buffer.from([0x43, 0x61, 0x66, 0xe9]), text.subarray(at)]), at: at + 3 };
  };

  it('is refused whole, naming the line, the column and the byte offset, however the stream is cut', async () => {
    const { bytes, at } = latin1();
    const expected = whereIs(bytes, at);
    for (const size of [1 << 20, 4096, 7, 1]) {
      const result = await readCatalogDocument(Readable.from(pieces(bytes, size)));
      expect(result.ok, `pieces of ${size}`).toBe(false);
      expect(issuesOf(result), `pieces of ${size}`).toEqual([
        expect.objectContaining({
          line: expected.line,
          column: expected.column,
          field: '(file)',
          expected: expect.stringContaining(`byte ${expected.offset.toLocaleString('en-US')} of the file, 0xE9`),
        }),
      ]);
    }
  });

  it('reads valid multi-byte characters cut anywhere between pieces', async () => {
    const text = original.replace('"title": "', '"title": "Åäö 😀 ');
    const whole = await parseCatalogDocument(text);
    expect(whole.ok).toBe(true);
    for (const size of [7, 65536]) expect(await readCatalogDocument(Readable.from(pieces(Buffer.from(text), size)))).toEqual(whole);
  });

  it('refuses a surrogate written as UTF-8, an overlong form, and a character the file ends inside', async () => {
    const cases: [Buffer, string][] = [
      [Buffer.concat([Buffer.from('{"format": "'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]), 'byte 12 of the file, 0xED 0xA0'],
      [Buffer.concat([Buffer.from('{\n"a": "'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]), 'byte 8 of the file, 0xC0'],
      [Buffer.concat([Buffer.from('{}\n'), Buffer.from([0xe2, 0x82])]), 'ends in the middle of a character, at byte 3: 0xE2 0x82'],
    ];
    for (const [bytes, message] of cases) {
      for (const size of [bytes.length, 1]) {
        const issues = issuesOf(await readCatalogDocument(Readable.from(pieces(bytes, size))));
        expect(issues, message).toEqual([expect.objectContaining({ field: '(file)', expected: expect.stringContaining(message) })]);
      }
    }
  });

  it('finds the same first bad byte as a strict decoder, on random bytes', () => {
    const strict = new TextDecoder('utf-8', { fatal: true });
    for (let n = 0; n < 1000; n++) {
      // mostly valid text with a few random bytes in it
      const bytes = Buffer.concat([Buffer.from('aé€😀'.repeat(n % 4)), randomBytes(1 + (n % 5)), Buffer.from('ok')]);
      const at = firstInvalidUtf8(bytes, true);
      const valid = (() => {
        try {
          strict.decode(bytes);
          return true;
        } catch {
          return false;
        }
      })();
      expect(at === -1, bytes.toString('hex')).toBe(valid);
      if (at >= 0) {
        // everything before it is UTF-8, and the sequence there is not
        expect(() => strict.decode(bytes.subarray(0, at))).not.toThrow();
        expect(() => strict.decode(bytes.subarray(at, at + 4)), bytes.toString('hex')).toThrow();
      }
    }
  });

  it('is refused for a Shopify CSV too, with the line and column of the bad byte', async () => {
    const csv = Buffer.concat([
      Buffer.from('Handle,Title,Variant SKU,Variant Price\nmug,Good mug,MUG-1,10\ncup,'),
      Buffer.from([0x43, 0x61, 0x66, 0xe9]),
      Buffer.from(' cup,CUP-1,10\n'),
    ]);
    const parsed = await readShopifyCsv(Readable.from(pieces(csv, 16)));
    expect(parsed.issues).toEqual([
      expect.objectContaining({ line: 3, column: 8, field: '(file)', expected: expect.stringContaining('0xE9') }),
    ]);
  });
});

describe('texts the database could not give back unchanged', () => {
  const withTexts = (edit: (doc: CatalogDocument) => void) => {
    const doc = JSON.parse(original) as CatalogDocument;
    edit(doc);
    return JSON.stringify(doc, null, 2);
  };
  const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

  it('a NUL or an unpaired surrogate is refused with its line and pointer, and nothing is written', async () => {
    const text = withTexts((doc) => {
      const product = doc.products[1]!;
      product.texts['sv-SE']!.title = 'Mugg\u0000 med text efter';
      product.texts['sv-SE']!.description = 'Half an emoji: \ud83d.';
      doc.collections[0]!.texts['sv-SE']!.title = '\u0000';
    });
    const parsed = await parseCatalogDocument(text);
    expect(parsed.ok).toBe(false);
    const handle = (JSON.parse(original) as CatalogDocument).products[1]!.handle;
    const collection = (JSON.parse(original) as CatalogDocument).collections[0]!.handle;
    expect(issuesOf(parsed)).toEqual([
      {
        pointer: '/products/1/texts/sv-SE/title',
        line: lineOf(text, `"handle": "${handle}"`) - 1,
        handle,
        field: 'title',
        expected: 'text without U+0000 (NUL, at character 5): the database would cut the text there',
      },
      {
        pointer: '/products/1/texts/sv-SE/description',
        line: lineOf(text, `"handle": "${handle}"`) - 1,
        handle,
        field: 'description',
        expected: expect.stringContaining('unpaired surrogate (\\uD83D, at character 16)'),
      },
      expect.objectContaining({
        pointer: '/collections/0/texts/sv-SE/title',
        handle: collection,
        expected: expect.stringContaining('U+0000'),
      }),
    ]);
  });

  it("a NUL in a name (an option's, as a key) is refused too", async () => {
    const text = withTexts((doc) => {
      const product = doc.products.find((p) => p.options.length > 0)!;
      product.texts['sv-SE']!.options = { [`${product.options[0]!.name}\u0000`]: { name: 'x' } };
    });
    const issues = issuesOf(await parseCatalogDocument(text));
    expect(issues).toEqual([
      expect.objectContaining({
        pointer: expect.stringMatching(/^\/products\/\d+\/texts\/sv-SE\/options\/.+\u0000$/),
        expected: expect.stringMatching(/^a name without U\+0000/),
      }),
    ]);
  });

  it('other control characters are kept as written: importing the same file again finds nothing to change', async () => {
    const text = withTexts((doc) => {
      doc.products[2]!.texts['sv-SE']!.title = 'Bell\u0007 and\ttab';
      doc.products[2]!.texts['sv-SE']!.description = 'Line\r\nbreak \u001f unit separator, \u007f delete, \ud83d\ude00 a whole emoji';
    });
    const importText = async () => {
      const parsed = await parseCatalogDocument(text);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
      return importCatalog(database, documentSource(parsed.doc, parsed.lines), { siteHandle: 'demo' });
    };
    const first = await importText();
    expect(first).toMatchObject({ ok: true, applied: true, plan: { products: { updated: 1 } } });
    const second = await importText();
    expect(second).toMatchObject({ ok: true, applied: false, plan: { rowWrites: 0 } });
    expect(await exportCatalog(database, 'demo')).toEqual(((await parseCatalogDocument(text)) as { doc: CatalogDocument }).doc);
  });

  it('a NUL in a Shopify CSV cell is refused with its line and column name', async () => {
    const csv =
      'Handle,Title,Body (HTML),Variant SKU,Variant Price\nmug,Mug,"<p>Fine</p>",MUG-1,10\ncup,Cup\u0000,"<p>Fine</p>",CUP-1,10\n';
    const parsed = await readShopifyCsv(Readable.from([Buffer.from(csv)]));
    expect(parsed.issues).toEqual([{ pointer: '', line: 3, field: 'Title', cell: 'B', expected: expect.stringContaining('U+0000') }]);
  });
});

describe('limits', () => {
  const small: ImportLimits = { fileBytes: 1 << 20, itemChars: 4096, items: 5, csvRows: 8 };

  it("grow with each whole 512 MB of heap, except one item's size", () => {
    const MB = 1024 * 1024;
    // node --max-old-space-size=512 reports a heap limit of 560 MB (the young generation on top)
    expect(importLimits(560 * MB)).toEqual(BASE_LIMITS);
    expect(importLimits(1072 * MB)).toEqual({
      ...BASE_LIMITS,
      fileBytes: BASE_LIMITS.fileBytes * 2,
      items: BASE_LIMITS.items * 2,
      csvRows: BASE_LIMITS.csvRows * 2,
    });
    expect(importLimits(200 * MB)).toEqual(BASE_LIMITS);
  });

  it('a product longer than the item limit is refused where it starts, before it is read whole', async () => {
    const text = original.replace('"description": "', `"description": "${'x'.repeat(10_000)}`);
    const issues = issuesOf(
      await readCatalogDocument(Readable.from(pieces(Buffer.from(text), 1000)), { ...small, fileBytes: 1 << 30, items: 1000 }),
    );
    expect(issues).toEqual([
      {
        pointer: '/products/0',
        line: lineAt(text, '"handle"') - 1,
        field: 'products',
        expected: 'a product of at most 4,096 characters of JSON (this one goes on past that)',
      },
    ]);
  });

  it('more products and collections than the limit are refused at the first one too many', async () => {
    const issues = issuesOf(await readCatalogDocument(Readable.from([original]), { ...small, fileBytes: 1 << 30, itemChars: 1 << 20 }));
    expect(issues).toEqual([
      expect.objectContaining({
        pointer: '/products/5',
        field: 'products',
        expected: expect.stringContaining('at most 5 products and collections in one file'),
      }),
    ]);
  });

  it('a file over the byte limit is refused, counting bytes as they stream', async () => {
    const issues = issuesOf(
      await readCatalogDocument(Readable.from(pieces(Buffer.from(original), 65536)), {
        ...small,
        fileBytes: 100_000,
        itemChars: 1 << 20,
        items: 1000,
      }),
    );
    expect(issues).toEqual([
      expect.objectContaining({ field: '(file)', expected: expect.stringContaining('a file of at most 100,000 bytes') }),
    ]);
  });

  it("a CSV is refused beyond its rows, its products, or one row's size", async () => {
    const header = 'Handle,Title,Variant SKU,Variant Price\n';
    const rows = (n: number, perProduct: number) =>
      Array.from({ length: n }, (_, i) => `p-${Math.floor(i / perProduct)},P,SKU-${i},10\n`).join('');
    const tooMany = await readShopifyCsv(Readable.from([Buffer.from(header + rows(20, 4))]), small);
    expect(tooMany.issues).toEqual([
      { pointer: '', line: 10, field: '(file)', expected: expect.stringContaining('at most 8 rows in one file') },
    ]);
    const manyProducts = await readShopifyCsv(Readable.from([Buffer.from(header + rows(8, 1))]), small);
    expect(manyProducts.issues).toEqual([
      { pointer: '', line: 7, field: 'Handle', cell: 'A', expected: expect.stringContaining('at most 5 products in one file') },
    ]);
    const longRow = await readShopifyCsv(Readable.from([Buffer.from(`${header}p,"${'x'.repeat(5000)}",SKU-1,10\n`)]), small);
    expect(longRow.issues).toEqual([
      expect.objectContaining({ line: 2, field: '(file)', expected: 'a row of at most 4,096 characters (this one goes on past that)' }),
    ]);
  });
});

const lineAt = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;
