import type { LighthouseRow } from './lighthouse';
import type { Measured } from './load';
import type { MixedResult } from './mixed';
import { SCENARIOS, type ReferenceKind, type ScenarioKey } from './scenarios';

export type Row = Measured & {
  key: ScenarioKey;
  peakRssMb: number;
  /**
   * Its reference route in the bare Next app, measured in slices alternating with it; its peak
   * RSS is that process's over the same slices, under Next's default settings.
   */
  reference: { kind: ReferenceKind; rps: number; p50: number; p99: number; ratios: number[]; medianRatio: number; peakRssMb: number };
};
export type Target = { name: string; value: number | null; limit: string; pass: boolean | null };

export type Report = {
  rows: Map<ScenarioKey, Row>;
  rows1k: Map<ScenarioKey, Row>;
  mixed: MixedResult | undefined;
  curve: { rps: number[]; errors: number; bucketSeconds: number } | undefined;
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
/** The most RSS the server may reach in any scenario (MB). */
const PEAK_RSS_MB = 300;

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
  for (const row of report.rows.values()) {
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
  const peak = Math.max(0, ...[...report.rows.values(), ...report.rows1k.values()].map((r) => r.peakRssMb), report.mixed?.rssPeakMb ?? 0);
  out.push(check('peak RSS (MB)', peak || null, `<= ${PEAK_RSS_MB}`, (v) => v <= PEAK_RSS_MB));
  // Beside it, what the bare app took for the same scenarios: how much of the peak is Next's own.
  const referencePeak = Math.max(0, ...[...report.rows.values(), ...report.rows1k.values()].map((r) => r.reference.peakRssMb));
  out.push({ name: 'peak RSS of the bare app, same scenarios (MB)', value: referencePeak || null, limit: 'gauge', pass: null });
  if (report.mixed) {
    out.push(check('mixed c=64: 5xx', report.mixed.status5xx, '= 0', (v) => v === 0));
    out.push(
      check(
        'mixed c=64: RSS end − RSS@10s (MB)',
        r2(report.mixed.rssEndMb - report.mixed.rssAt10sMb),
        '<= 10 (not growing)',
        (v) => v <= 10,
      ),
    );
    const { liveAt10s, liveEnd } = report.mixed;
    if (liveAt10s && liveEnd)
      out.push(check('mixed c=64: live heap end − @10s (MB)', r2(liveEnd.heapUsed - liveAt10s.heapUsed), '<= 5 (no leak)', (v) => v <= 5));
  }
  return out;
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
    '10k÷1k',
  ];
  const widths = [34, 8, 8, 8, 6, 7, 17, 8, 8, 7, 6, 7, 7];
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
      withGrowth && growth[row.key] !== undefined ? growth[row.key]!.toFixed(2) : '',
    ]);
  };
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join(' '));
  for (const row of report.rows.values()) console.log(rowLine(row, SCENARIOS[row.key].label, true));
  if (report.rows1k.size) {
    console.log('');
    for (const row of report.rows1k.values()) console.log(rowLine(row, `${SCENARIOS[row.key].label} @1k`, false));
  }
  console.log(
    '\nratio: median over slices alternating with the reference (each slice against the reference slices either side); ' +
      'req/s and latencies pool the slices. Reference: a bare Next app in its own process answering the same bytes. ' +
      "10k÷1k: the 1k catalog's ratio over the 10k catalog's (1.00 = no growth).",
  );
  for (const row of report.rows.values()) {
    if (row.reference.ratios.length > 1) console.log(`  ${pad(row.key, 14, true)} slice ratios ${row.reference.ratios.join(' ')}`);
  }
  if (report.curve) {
    const c = report.curve;
    console.log(
      `\ncold-to-warm, product reads over the whole catalog from the server's start, req/s per ${c.bucketSeconds} s: ${c.rps.join(' ')} (errors ${c.errors})`,
    );
  }
  if (report.mixed) {
    const m = report.mixed;
    console.log(
      `\nmixed run c=${m.connections} ${m.seconds}s: ${m.rps} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms, 5xx ${m.status5xx}, ` +
        `statuses ${JSON.stringify(m.statusCodes)}, RSS @10s ${m.rssAt10sMb} MB → end ${m.rssEndMb} MB (peak ${m.rssPeakMb}, slope ${m.rssSlopeMbPerMin} MB/min)`,
    );
    if (m.liveAt10s && m.liveEnd) console.log(`live heap after GC: @10s ${m.liveAt10s.heapUsed} MB → end ${m.liveEnd.heapUsed} MB`);
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
      lighthouse: report.lighthouse ?? null,
      mixed: report.mixed ?? null,
      targets: targetsOf(report),
    },
  });
}
