import { CatalogInputError, megabytes } from './input';

/**
 * Splits a catalog document as it streams in: each product and each collection comes out
 * as its own small JSON text (with the line it starts on), every other top-level member
 * whole. So an import never holds the file's text, only one item's at a time, and an item
 * longer than `maxItemChars` is refused while it is still arriving.
 */
export type DocumentPart = { key: string; index: number | null; text: string; line: number; opens?: true };

const SPLIT = new Set(['products', 'collections']);
const WS = new Set([' ', '\t', '\n', '\r']);
const STRING_STOP = /["\\\n]/g;

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

export async function* splitCatalogJson(
  chunks: AsyncIterable<string>,
  maxItemChars = Number.POSITIVE_INFINITY,
): AsyncGenerator<DocumentPart> {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let line = 1;
  let sawRoot = false;
  // depth-1 member state
  let expect: 'key' | 'colon' | 'value' | 'comma' = 'key';
  let key = '';
  let keyParts: string[] | null = null;
  let keySize = 0;
  let inArray = false;
  let index = 0;
  // capture of one value (an object, so the helpers below can change it)
  const cap = { parts: null as string[] | null, size: 0, start: 0, depth: 0, line: 0, kind: 'scalar' as 'container' | 'string' | 'scalar' };

  for await (const chunk of chunks) {
    if (cap.parts) cap.start = 0;
    const keyFrom = 0;
    let keyStart = keyParts ? keyFrom : -1;
    for (let i = 0; i < chunk.length; i += 1) {
      const c = chunk[i]!;
      if (c === '\n') line += 1;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === '\\') escaped = true;
        else if (c !== '"') {
          // the rest of a string is read natively, up to what ends it, escapes or counts a line
          STRING_STOP.lastIndex = i + 1;
          const stop = STRING_STOP.exec(chunk);
          i = (stop ? stop.index : chunk.length) - 1;
        } else {
          inString = false;
          if (keyParts) {
            takeKey(chunk.slice(keyStart, i));
            key = JSON.parse(`"${keyParts.join('')}"`) as string;
            keyParts = null;
            expect = 'colon';
          } else if (cap.parts && cap.kind === 'string' && depth === cap.depth) {
            take(chunk.slice(cap.start, i + 1));
            yield* emit();
          }
        }
        continue;
      }
      if (cap.parts && cap.kind === 'scalar' && (c === ',' || c === '}' || c === ']' || WS.has(c))) {
        take(chunk.slice(cap.start, i));
        yield* emit();
      }
      if (WS.has(c)) continue;
      if (!sawRoot) {
        if (c !== '{') throw new JsonSyntaxError('the document must be one JSON object', line);
        sawRoot = true;
        depth = 1;
        continue;
      }
      if (depth === 0) throw new JsonSyntaxError(`unexpected "${c}" after the end of the document`, line);
      const startsValue = !cap.parts && ((depth === 1 && expect === 'value') || (inArray && depth === 2));
      if (c === '"') {
        inString = true;
        if (depth === 1 && expect === 'key') {
          keyParts = [];
          keySize = 0;
          keyStart = i + 1;
        } else if (startsValue) begin(i, 'string');
        continue;
      }
      if (depth === 1 && expect === 'colon') {
        if (c !== ':') throw new JsonSyntaxError(`expected ":" after "${key}"`, line);
        expect = 'value';
        continue;
      }
      if (depth === 1 && expect === 'comma') {
        if (c === ',') expect = 'key';
        else if (c === '}') depth = 0;
        else throw new JsonSyntaxError(`expected "," or "}" after the value of "${key}"`, line);
        continue;
      }
      if (depth === 1 && expect === 'key') {
        if (c === '}') {
          depth = 0;
          continue;
        }
        throw new JsonSyntaxError('expected a member name in quotes', line);
      }
      if (c === '{' || c === '[') {
        if (depth === 1 && expect === 'value' && c === '[' && SPLIT.has(key)) {
          inArray = true;
          index = 0;
          depth = 2;
          // said at its start, so an empty list is a list too, not a missing one
          yield { key, index: null, text: '', line, opens: true };
          continue;
        }
        if (startsValue) begin(i, 'container');
        depth += 1;
        continue;
      }
      if (c === '}' || c === ']') {
        depth -= 1;
        if (inArray && depth === 1) {
          if (c !== ']') throw new JsonSyntaxError(`expected "]" to close "${key}"`, line);
          inArray = false;
          expect = 'comma';
          continue;
        }
        if (cap.parts && cap.kind === 'container' && depth === cap.depth) {
          take(chunk.slice(cap.start, i + 1));
          yield* emit();
        }
        continue;
      }
      if (c === ',' && inArray && depth === 2) continue;
      if (startsValue) begin(i, 'scalar');
    }
    if (keyParts) takeKey(chunk.slice(keyStart));
    if (cap.parts) take(chunk.slice(cap.start));
  }
  if (cap.parts && cap.kind === 'scalar') yield* emit();
  if (!sawRoot || depth !== 0 || inString) throw new JsonSyntaxError('the document ends early (unclosed object, array or string)', line);

  function take(piece: string) {
    cap.parts!.push(piece);
    cap.size += piece.length;
    if (cap.size > maxItemChars) {
      const what = inArray ? (key === 'products' ? 'a product' : 'a collection') : `the value of "${key}"`;
      throw new CatalogInputError({
        pointer: inArray ? `/${key}/${index}` : `/${key}`,
        line: cap.line,
        field: key,
        expected: `${what} of at most ${megabytes(maxItemChars, 'characters')} of JSON (this one goes on past that)`,
      });
    }
  }
  function takeKey(piece: string) {
    keyParts!.push(piece);
    keySize += piece.length;
    if (keySize > maxItemChars)
      throw new CatalogInputError({
        pointer: '',
        line,
        field: '(document)',
        expected: `a member name of at most ${megabytes(maxItemChars, 'characters')}`,
      });
  }
  function begin(at: number, what: typeof cap.kind) {
    cap.parts = [];
    cap.size = 0;
    cap.start = at;
    cap.depth = depth;
    cap.line = line;
    cap.kind = what;
  }
  function* emit(): Generator<DocumentPart> {
    const text = cap.parts!.join('');
    cap.parts = null;
    if (inArray) yield { key, index: index++, text, line: cap.line };
    else {
      yield { key, index: null, text, line: cap.line };
      expect = 'comma';
    }
  }
}
