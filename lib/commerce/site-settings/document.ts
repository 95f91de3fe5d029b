import { SettingsDocument } from '@/lib/contract/site-settings-document';
import { issuesFromZod, pointerOf, type CatalogIssue } from '../catalog/transfer/validate';

/** One thing wrong with a settings file, as a catalog import names it: line, JSON pointer, field, what was expected. */
export type SettingsIssue = CatalogIssue;

/** A settings file is small (a few dozen KB with every legal page in three languages); this caps a mistake. */
export const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;

export type ParsedSettings = { ok: true; doc: SettingsDocument; lines: Map<string, number> } | { ok: false; issues: SettingsIssue[] };

/**
 * The file's bytes as a settings document, or every problem with it: not UTF-8 (refused, never
 * guessed), not JSON (the line of the mistake), or not the document's shape (each issue with
 * its JSON pointer and the line its value starts on).
 */
export function parseSettingsDocument(input: Uint8Array | string): ParsedSettings {
  const size = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
  if (size > MAX_SETTINGS_BYTES) {
    return { ok: false, issues: [{ pointer: '', field: '(file)', expected: `a file of at most ${MAX_SETTINGS_BYTES / 1024 / 1024} MB` }] };
  }
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      const at = firstBadByte(input);
      const line = 1 + countNewlines(input, at);
      return {
        ok: false,
        issues: [{ pointer: '', line, field: '(file)', expected: `UTF-8 text (byte ${at} is not UTF-8; save the file as UTF-8)` }],
      };
    }
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let lines: Map<string, number>;
  let value: unknown;
  try {
    value = JSON.parse(text);
    lines = lineMap(text);
  } catch (error) {
    return {
      ok: false,
      issues: [
        {
          pointer: '',
          line: syntaxLine(text, error),
          field: '(document)',
          expected: `valid JSON (${error instanceof Error ? error.message : 'a syntax error'})`,
        },
      ],
    };
  }
  const bad = findBadText(value, []);
  if (bad)
    return {
      ok: false,
      issues: [
        withLine(
          {
            pointer: pointerOf(bad),
            field: String(bad.at(-1) ?? '(document)'),
            expected: 'a text without NUL characters or half a surrogate pair',
          },
          lines,
        ),
      ],
    };
  const parsed = SettingsDocument.safeParse(value);
  if (!parsed.success) return { ok: false, issues: issuesFromZod(parsed.error, value).map((i) => withLine(i, lines)) };
  return { ok: true, doc: parsed.data, lines };
}

/** The issue with the line its pointer's value starts on (or its nearest parent's). */
export function withLine(issue: SettingsIssue, lines: Map<string, number>): SettingsIssue {
  if (issue.line !== undefined) return issue;
  let pointer = issue.pointer;
  for (;;) {
    const line = lines.get(pointer);
    if (line !== undefined) return { ...issue, line };
    if (pointer === '') return issue;
    pointer = pointer.slice(0, pointer.lastIndexOf('/'));
  }
}

function findBadText(value: unknown, path: (string | number)[]): (string | number)[] | null {
  if (typeof value === 'string')
    return /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value) ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const bad = findBadText(value[i], [...path, i]);
      if (bad) return bad;
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const bad = findBadText(v, [...path, k]);
      if (bad) return bad;
    }
  }
  return null;
}

function firstBadByte(bytes: Uint8Array): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let lo = 0;
  let hi = bytes.length;
  // the longest prefix that decodes, give or take a character cut in half
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    try {
      decoder.decode(bytes.subarray(0, mid), { stream: true });
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  return lo;
}

function countNewlines(bytes: Uint8Array, end: number): number {
  let n = 0;
  for (let i = 0; i < end; i += 1) if (bytes[i] === 0x0a) n += 1;
  return n;
}

/** The line of a JSON.parse error, from its "position N" or "line N" when it gives one. */
function syntaxLine(text: string, error: unknown): number | undefined {
  const message = error instanceof Error ? error.message : '';
  const line = /line (\d+)/.exec(message);
  if (line) return Number(line[1]);
  const position = /position (\d+)/.exec(message);
  if (position) return text.slice(0, Number(position[1])).split('\n').length;
  return undefined;
}

/**
 * JSON pointer → the line its value starts on, for every value in the (valid) text: a small
 * scanner over what JSON.parse already accepted, so it needs no error handling of its own.
 */
export function lineMap(text: string): Map<string, number> {
  const map = new Map<string, number>();
  let i = 0;
  let line = 1;
  const skip = () => {
    for (; i < text.length; i += 1) {
      const c = text[i];
      if (c === '\n') line += 1;
      else if (c !== ' ' && c !== '\t' && c !== '\r') break;
    }
  };
  const readString = (): string => {
    const start = i;
    i += 1;
    for (; text[i] !== '"'; i += 1) if (text[i] === '\\') i += 1;
    i += 1;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: (string | number)[]): void => {
    skip();
    map.set(pointerOf(path), line);
    const c = text[i];
    if (c === '{') {
      i += 1;
      skip();
      if (text[i] === '}') {
        i += 1;
        return;
      }
      for (;;) {
        skip();
        const key = readString();
        skip();
        i += 1; // :
        value([...path, key]);
        skip();
        if (text[i++] === '}') return;
      }
    } else if (c === '[') {
      i += 1;
      skip();
      if (text[i] === ']') {
        i += 1;
        return;
      }
      for (let n = 0; ; n += 1) {
        value([...path, n]);
        skip();
        if (text[i++] === ']') return;
      }
    } else if (c === '"') {
      readString();
    } else {
      while (i < text.length && !/[\s,\]}]/.test(text[i]!)) i += 1;
    }
  };
  value([]);
  return map;
}
