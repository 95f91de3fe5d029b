import type { LighthouseRow } from './lighthouse';
import type { Measured } from './load';
import type { MemoryMap } from './processes';
import type { Memory } from './server';
import { SERIES_SECONDS, type MixedResult } from './mixed';
import { keptOf, SCENARIOS, type ReferenceKind, type ScenarioKey } from './scenarios';

export type Row = Measured & {
  key: ScenarioKey;
  peakRssMb: number;
  /** A pass (SCENARIOS[key].pass): the requests a whole pass is, and the seconds it took. */
  passOf?: number;
  seconds?: number;
  /**
   * Its reference route in the bare Next app, measured in slices alternating with it; its peak
   * RSS is that process's over the same slices, under Next's default settings.
   */
  reference: { kind: ReferenceKind; rps: number; p50: number; p99: number; ratios: number[]; medianRatio: number; peakRssMb: number };
};
export type Target = { name: string; value: number | null; limit: string; pass: boolean | null };

/**
 * Where the shop's and the bare app's memory was after the reads: each group's mappings
 * (processes.ts) and process.memoryUsage() (the shop's after a full GC, the bare app's as it ran).
 */
export type MemoryBreakdown = Record<'shop' | 'bare', { map: MemoryMap; usage: Memory | null }>;

/**
 * Rendering ahead right after one product's prices changed, with no shopper meanwhile
 * (run.ts): what the job's passes did for the change. `written`: pages the database got since
 * the change (stored_pages rows whose stored_at moved), null where there is no such table.
 * `renderedBefore`: what it rendered before the change, bringing every address up to date.
 */
export type AheadAfterChange = { handle: string; rendered: number; seconds: number; written: number | null; renderedBefore: number };

export type Report = {
  rows: Map<ScenarioKey, Row>;
  rows1k: Map<ScenarioKey, Row>;
  mixed: MixedResult | undefined;
  curve: { rps: number[]; errors: number; bucketSeconds: number } | undefined;
  aheadAfterChange?: AheadAfterChange;
  memory?: MemoryBreakdown;
  lighthouse?: LighthouseRow[];
  meta: Record<string, unknown>;
};

const r2 = (n: number) => Math.round(n * 100) / 100;
const REFERENCE_LABEL: Record<ReferenceKind, string> = {
  static: 'static route',
  dynamic: 'dynamic route',
  post: 'POST route',
  page: 'page-bytes route',
  rendered: 'bare rendered page',
};
/** The shop's peak RSS over the bare app's in the same scenarios (issue #44.5: each as it ships). */
const PEAK_RSS_RATIO = 1.0;
/** RSS growth in the mixed run after its first minute, % (issue #44.5). */
const MIXED_GROWTH_PCT = 5;

/** The table's order: each read beside its variants (c=1, cold, warm, after a change). */
const TABLE_ORDER: ScenarioKey[] = [
  'product_c1',
  'product',
  'product_cold',
  'product_warm',
  'product_changed',
  'list',
  'collection',
  'availability',
  'snapshot',
  'search_words_c1',
  'search_prefix_c1',
  'search_faceted_c1',
  'search_words',
  'search_prefix',
  'search_faceted',
  'page',
  'page_cold',
  'page_warm',
  'page_changed',
  'page_render',
  'checkout',
];
const inOrder = (rows: Map<ScenarioKey, Row>) => [...rows.values()].sort((a, b) => TABLE_ORDER.indexOf(a.key) - TABLE_ORDER.indexOf(b.key));

/** The shop's peak over the bare app's, each over every scenario measured beside it. */
export function peakRss(report: Report): { shop: number; bare: number; ratio: number | null; at: ScenarioKey | null } {
  const rows = [...report.rows.values(), ...report.rows1k.values()];
  const top = rows.reduce<Row | null>((a, r) => (!a || r.peakRssMb > a.peakRssMb ? r : a), null);
  const shop = top?.peakRssMb ?? 0;
  const bare = Math.max(0, ...rows.map((r) => r.reference.peakRssMb));
  return { shop, bare, ratio: shop > 0 && bare > 0 ? r2(shop / bare) : null, at: top?.key ?? null };
}

/**
 * Cost per request grows as throughput falls, so growth = (1k share of its reference) over
 * (10k share of its reference): each normalised by the reference measured beside it.
 */
export function growthOf(report: Report): Partial<Record<ScenarioKey, number>> {
  const out: Partial<Record<ScenarioKey, number>> = {};
  for (const [key, big] of report.rows) {
    const small = report.rows1k.get(key);
    if (small && big.reference.medianRatio > 0) out[key] = r2(small.reference.medianRatio / big.reference.medianRatio);
  }
  return out;
}

export function targetsOf(report: Report): Target[] {
  const check = (name: string, value: number | null, limit: string, ok: (v: number) => boolean): Target => ({
    name,
    value,
    limit,
    pass: value === null ? null : ok(value),
  });
  const out: Target[] = [];
  for (const row of inOrder(report.rows)) {
    const target = SCENARIOS[row.key].target;
    if (!target) continue;
    const versus = REFERENCE_LABEL[row.reference.kind];
    if (target.ratio !== undefined)
      out.push(check(`${row.key} req/s ÷ ${versus}`, row.reference.medianRatio, `>= ${target.ratio}`, (v) => v >= target.ratio!));
    if (target.p50Ms !== undefined) out.push(check(`${row.key} p50 (ms)`, row.p50, `<= ${target.p50Ms}`, (v) => v <= target.p50Ms!));
    if (target.p99 !== undefined) {
      out.push(
        check(
          `${row.key} p99 ÷ ${versus} p99`,
          row.reference.p99 > 0 ? r2(row.p99 / row.reference.p99) : null,
          `<= ${target.p99}`,
          (v) => v <= target.p99!,
        ),
      );
    }
  }
  const checkout = report.rows.get('checkout');
  if (checkout) out.push(check('checkout errors', checkout.errors, '= 0', (v) => v === 0));
  const ahead = report.aheadAfterChange;
  if (ahead) {
    out.push({ name: 'after a one-product change: pages rendered ahead', value: ahead.rendered, limit: 'gauge', pass: null });
  }
  const peak = peakRss(report);
  out.push(check(`peak RSS ÷ the bare app's, same scenarios`, peak.ratio, `<= ${PEAK_RSS_RATIO.toFixed(1)}`, (v) => v <= PEAK_RSS_RATIO));
  if (report.mixed) {
    const m = report.mixed;
    out.push(check(`mixed c=${m.connections}: 5xx`, m.status5xx, '= 0', (v) => v === 0));
    out.push(
      check(
        `mixed c=${m.connections}: RSS growth after ${m.settleSeconds} s (%)`,
        m.rssGrowthPct,
        `<= ${MIXED_GROWTH_PCT}`,
        (v) => v <= MIXED_GROWTH_PCT,
      ),
    );
    const { liveSettled, liveEnd } = m;
    if (liveSettled && liveEnd)
      out.push(
        check(
          `mixed c=${m.connections}: live heap end − @${m.settleSeconds} s (MB)`,
          r2(liveEnd.heapUsed - liveSettled.heapUsed),
          '<= 5 (no leak)',
          (v) => v <= 5,
        ),
      );
  }
  return out;
}

function aheadText(a: AheadAfterChange): string {
  const written = a.written === null ? '' : `; ${a.written} written to the database since the change`;
  return `${a.rendered} rendered in ${a.seconds} s (${a.handle}'s prices changed${written}; ${a.renderedBefore} before the change)`;
}

function pad(text: string | number, width: number, left = false): string {
  const s = String(text);
  return left ? s.padEnd(width) : s.padStart(width);
}

export function printTable(report: Report): void {
  const growth = growthOf(report);
  const header = [
    'scenario',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'RSS MB',
    'reference',
    'req/s',
    'p99 ms',
    'RSS MB',
    'ratio',
    'target',
    'RSS×',
    'kept',
    '10k÷1k',
  ];
  const widths = [42, 8, 8, 8, 6, 7, 17, 8, 8, 7, 6, 7, 5, 6, 7];
  const line = (cells: (string | number)[]) => cells.map((c, i) => pad(c, widths[i]!, i === 0 || i === 6)).join(' ');
  const rowLine = (row: Row, label: string, withGrowth: boolean) => {
    const target = SCENARIOS[row.key].target;
    return line([
      label,
      row.rps,
      row.p50,
      row.p99,
      row.errors,
      row.peakRssMb,
      REFERENCE_LABEL[row.reference.kind],
      row.reference.rps,
      row.reference.p99,
      row.reference.peakRssMb,
      row.reference.medianRatio.toFixed(2),
      target?.ratio !== undefined ? `≥${target.ratio}` : target?.p50Ms !== undefined ? `p50≤${target.p50Ms}` : '',
      row.reference.peakRssMb > 0 ? (row.peakRssMb / row.reference.peakRssMb).toFixed(2) : '',
      row.tally ? `${Math.floor((keptOf(row.tally) / Math.max(1, row.requests)) * 1000) / 10}%` : '',
      withGrowth && growth[row.key] !== undefined ? growth[row.key]!.toFixed(2) : '',
    ]);
  };
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join(' '));
  const ahead = report.aheadAfterChange;
  for (const row of inOrder(report.rows)) {
    console.log(rowLine(row, SCENARIOS[row.key].label, true));
    // Rendering ahead is a count, not a rate: its line sits with the rows after a change.
    if (row.key === 'page_changed' && ahead)
      console.log(`${pad('Pages rendered ahead after a change', widths[0]!, true)} ${aheadText(ahead)}`);
  }
  if (ahead && !report.rows.has('page_changed'))
    console.log(`${pad('Pages rendered ahead after a change', widths[0]!, true)} ${aheadText(ahead)}`);
  if (report.rows1k.size) {
    console.log('');
    for (const row of inOrder(report.rows1k)) console.log(rowLine(row, `${SCENARIOS[row.key].label} @1k`, false));
  }
  console.log(
    '\nratio: median over slices alternating with the reference (each slice against the reference slices either side); ' +
      'req/s and latencies pool the slices. Reference: a bare Next app in its own process answering the same bytes. ' +
      "10k÷1k: the 1k catalog's ratio over the 10k catalog's (1.00 = no growth). RSS×: the server's peak RSS over the bare app's in " +
      'the same scenario (the bare app gives memory back while it idles, as during the mixed run, so rows after that read high; ' +
      "the peak RSS target takes each process's peak over all scenarios). kept: product pages answered from a kept copy (the rest rendered for the request). First and second " +
      'pass: every product once on a server just started, then again, against the reference passed over before and after.',
  );
  for (const row of inOrder(report.rows)) {
    const pass = SCENARIOS[row.key].pass;
    const ratios = row.reference.ratios.join(' ');
    if (row.reference.ratios.length > 1)
      console.log(`  ${pad(row.key, 16, true)} ${pass ? 'against the reference before and after' : 'slice ratios'} ${ratios}`);
    if (pass) console.log(`  ${pad(row.key, 16, true)} ${row.requests} of ${row.passOf ?? '?'} requests in ${row.seconds ?? '?'} s`);
    if (row.tally) console.log(`  ${pad(row.key, 16, true)} answers: ${JSON.stringify(row.tally)}`);
  }
  if (report.curve) {
    const c = report.curve;
    console.log(
      `\ncold-to-warm, product reads over the whole catalog from the server's start, req/s per ${c.bucketSeconds} s: ${c.rps.join(' ')} (errors ${c.errors})`,
    );
  }
  const peak = peakRss(report);
  if (peak.ratio !== null)
    console.log(
      `\npeak RSS: the shop ${peak.shop} MB (${peak.at}), the bare app ${peak.bare} MB over the same scenarios: ${peak.ratio.toFixed(2)}×`,
    );
  if (report.memory) {
    const cells = (label: string, { map, usage }: MemoryBreakdown['shop']) =>
      [
        pad(label, 14, true),
        pad(map.rss, 6),
        pad(map.anonymous, 9),
        pad(usage ? `${usage.heapTotal}/${usage.heapUsed}` : '-', 13),
        pad(map.node, 6),
        pad(map.addons, 7),
        pad(map.libraries, 9),
        pad(map.files, 6),
        pad(`${map.processes}/${map.threads}`, 9),
      ].join(' ');
    console.log("\nmemory after the reads (MB; the shop's V8 heap after a full GC, the bare app's as it was):");
    console.log(
      `${pad('', 14)} ${pad('RSS', 6)} ${pad('anonymous', 9)} ${pad('V8 total/used', 13)} ${pad('node', 6)} ${pad('add-ons', 7)} ${pad('libraries', 9)} ${pad('files', 6)} ${pad('proc/thr', 9)}`,
    );
    console.log(cells('the shop', report.memory.shop));
    console.log(cells('the bare app', report.memory.bare));
  }
  if (report.mixed) {
    const m = report.mixed;
    const every = Math.max(1, Math.round(30 / SERIES_SECONDS));
    console.log(
      `\nmixed run c=${m.connections} ${m.seconds}s: ${m.rps} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms, 5xx ${m.status5xx}, ` +
        `statuses ${JSON.stringify(m.statusCodes)}; RSS @${m.settleSeconds}s ${m.rssSettledMb} MB → end ${m.rssEndMb} MB ` +
        `(${m.rssGrowthPct >= 0 ? '+' : ''}${m.rssGrowthPct}%; peak ${m.rssPeakMb}, after ${m.settleSeconds} s ${m.rssPeakAfterSettleMb})`,
    );
    console.log(`RSS every ${every * SERIES_SECONDS} s (MB): ${m.rssSeries.filter((_, i) => i % every === 0).join(' ')}`);
    if (m.liveSettled && m.liveEnd)
      console.log(`live heap after GC: @${m.settleSeconds}s ${m.liveSettled.heapUsed} MB → end ${m.liveEnd.heapUsed} MB`);
  }
  console.log('\ntargets:');
  for (const t of targetsOf(report)) {
    const verdict = t.pass === null ? 'n/a ' : t.pass ? 'PASS' : 'MISS';
    console.log(`  ${verdict}  ${pad(t.name, 44, true)} ${pad(t.value ?? '-', 8)}  (${t.limit})`);
  }
}

export function jsonLine(report: Report): string {
  const obj = (rows: Map<ScenarioKey, Row>) =>
    Object.fromEntries(
      [...rows.values()].map((r) => [
        r.key,
        {
          rps: r.rps,
          p50: r.p50,
          p99: r.p99,
          errors: r.errors,
          requests: r.requests,
          peakRssMb: r.peakRssMb,
          reference: r.reference,
          statusCodes: r.statusCodes,
          ...(r.tally ? { answers: r.tally } : {}),
          ...(r.passOf !== undefined ? { passOf: r.passOf, seconds: r.seconds } : {}),
        },
      ]),
    );
  return JSON.stringify({
    bench: {
      meta: report.meta,
      catalog10k: obj(report.rows),
      catalog1k: obj(report.rows1k),
      growth: growthOf(report),
      coldToWarm: report.curve ?? null,
      aheadAfterChange: report.aheadAfterChange ?? null,
      memory: report.memory ?? null,
      peakRss: peakRss(report),
      lighthouse: report.lighthouse ?? null,
      mixed: report.mixed ?? null,
      targets: targetsOf(report),
    },
  });
}
