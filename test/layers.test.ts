// The folders of lib/ (and db/, app/) are layers: an import between two of them goes one way
// only. ESLint's no-restricted-imports names the lines that matter most; this test holds the
// rule for every pair, so a new two-way dependency fails here before it grows.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(new URL(import.meta.url).pathname), '..');
const SOURCES = /\.(?:ts|tsx|mjs)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((path) => SOURCES.test(path) && !path.includes('node_modules'))
    .map((path) => join(dir, path));
}

/** The layer a file belongs to: lib/<folder or file>, app/<top folder>, db (one layer, sealed by its own rules). */
function layerOf(file: string): string | null {
  const parts = file.replace(/\.(?:d\.)?(?:ts|tsx|mjs)$/, '').split('/');
  if (parts[0] === 'lib' || parts[0] === 'app') return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts.join('/');
  if (parts[0] === 'db') return 'db';
  return null;
}

/**
 * Every import a file runs (static, dynamic, re-export), as a path from the root. Type-only
 * imports are left out: they vanish from the built code, and naming a type of a layer below
 * or above joins no two layers' code.
 */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:^|[^\w])(?:from|import)\s*\(?\s*'([^']+)'/g)]
    .filter(
      (m) => !/(?:import|export)\s+type\s[^;]*$/.test(text.slice(Math.max(0, text.lastIndexOf(';', m.index) + 1), m.index + m[0].length)),
    )
    .map((m) => m[1]!);
  return specifiers.flatMap((spec) => {
    if (spec.startsWith('@/')) return [spec.slice(2)];
    if (spec.startsWith('.')) return [relative(ROOT, normalize(join(ROOT, dirname(file), spec)))];
    return [];
  });
}

function layerGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of [...sourceFiles('lib'), ...sourceFiles('db'), ...sourceFiles('app')]) {
    const from = layerOf(file);
    if (!from) continue;
    for (const target of importsOf(file)) {
      const to = layerOf(target);
      if (!to || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string[]>();
      graph.set(from, edges.set(to, [...(edges.get(to) ?? []), file]));
    }
  }
  return graph;
}

describe('the layers', () => {
  const graph = layerGraph();

  it('are found: the route wrapper, the server, the platform and the domain import one another', () => {
    expect(graph.get('lib/api')?.has('lib/platform')).toBe(true);
    expect(graph.get('app/site')?.has('lib/api')).toBe(true);
  });

  it('never import each other both ways', () => {
    const twoWay: string[] = [];
    for (const [from, edges] of graph) {
      for (const [to, files] of edges) {
        const back = graph.get(to)?.get(from);
        if (back && from < to) twoWay.push(`${from} ⇄ ${to}: ${files[0]} → ${to}; ${back[0]} → ${from}`);
      }
    }
    expect(twoWay).toEqual([]);
  });

  it('keep lib/http to small helpers that import nothing of ours', () => {
    expect([...(graph.get('lib/http')?.keys() ?? [])]).toEqual([]);
  });
});
