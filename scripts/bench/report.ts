import type { Measured } from './load';
import type { MixedResult } from './mixed';
import { SCENARIOS, type ScenarioKey } from './scenarios';

export type Row = Measured & {
  key: ScenarioKey;
  peakRssMb: number;
  /** The reference (the ceiling, or the static page) measured in slices alternating with this operation. */
  reference?: { key: ScenarioKey; rps: number; p99: number; ratios: number[]; medianRatio: number };
  /** Informative: against the ceiling handler sent the same kind of request (run.ts, SAME_REQUEST). */
  sameRequest?: { key: ScenarioKey; rps: number; ratios: number[]; medianRatio: number };
};
export type Target = { name: string; value: number | null; limit: string; pass: boolean | null };

const READS: ScenarioKey[] = ['product', 'list', 'collection', 'availability', 'snapshot', 'page'];
const r2 = (n: number) => Math.round(n * 100) / 100;

export type Report = {
  rows: Map<ScenarioKey, Row>;
  rows1k: Map<ScenarioKey, Row>;
  floor: Row | undefined;
  mixed: MixedResult | undefined;
  ceilingRps: number;
  ceilingP99: number;
  meta: Record<string, unknown>;
};

/** rps relative to the ceiling: the median of its interleaved slices when it has them, else the run's mean ceiling. */
export function ratioOf(row: Row, ceilingRps: number): number | null {
  if (row.reference?.key === 'ceiling') return row.reference.medianRatio;
  return ceilingRps > 0 ? r2(row.rps / ceilingRps) : null;
}

export function growthOf(report: Report): Partial<Record<ScenarioKey, number>> {
  const out: Partial<Record<ScenarioKey, number>> = {};
  for (const key of READS) {
    const big = report.rows.get(key);
    const small = report.rows1k.get(key);
    // cost per request ∝ 1/throughput at saturation, so growth = rps(1k) / rps(10k), each
    // normalised by its reference measured alongside it (the machine may differ between the two)
    if (big?.reference && small?.reference && big.reference.medianRatio > 0) out[key] = r2(small.reference.medianRatio / big.reference.medianRatio);
    else if (big && small && big.rps > 0) out[key] = r2(small.rps / big.rps);
  }
  return out;
}

export function targetsOf(report: Report): Target[] {
  const { rows, ceilingRps, ceilingP99 } = report;
  const ratio = (key: ScenarioKey) => {
    const row = rows.get(key);
    return row ? ratioOf(row, ceilingRps) : null;
  };
  const check = (name: string, value: number | null, limit: string, ok: (v: number) => boolean): Target => ({
    name, value, limit, pass: value === null ? null : ok(value),
  });
  const product = rows.get('product');
  const out: Target[] = [
    check('product rps / ceiling', ratio('product'), '>= 0.8', (v) => v >= 0.8),
    check('product p99 / ceiling p99 (c=32)', product && ceilingP99 > 0 ? r2(product.p99 / ceilingP99) : null, '<= 1.3', (v) => v <= 1.3),
    check('product p50 at c=1 (ms)', rows.get('product_c1')?.p50 ?? null, '<= 3', (v) => v <= 3),
  ];
  for (const key of ['availability', 'snapshot', 'list', 'collection'] as const) {
    out.push(check(`${key} rps / ceiling`, ratio(key), '>= 0.6', (v) => v >= 0.6));
  }
  const checkout = rows.get('checkout');
  out.push(check('checkout rps', checkout?.rps ?? null, '>= 300', (v) => v >= 300));
  out.push(check('checkout errors', checkout?.errors ?? null, '= 0', (v) => v === 0));
  const page = rows.get('page');
  const stat = rows.get('static');
  const pageRatio = page?.reference?.key === 'static' ? page.reference.medianRatio : page && stat && stat.rps > 0 ? r2(page.rps / stat.rps) : null;
  out.push(check('storefront page rps / static page', pageRatio, '>= 0.4', (v) => v >= 0.4));
  for (const [key, g] of Object.entries(growthOf(report))) out.push(check(`growth 10k/1k ${key}`, g, '<= 1.2', (v) => v <= 1.2));
  const peak = Math.max(0, ...[...rows.values(), ...report.rows1k.values()].map((r) => r.peakRssMb), report.mixed?.rssPeakMb ?? 0);
  out.push(check('peak RSS (MB)', peak || null, '<= 300', (v) => v <= 300));
  if (report.mixed) {
    out.push(check('mixed c=64: 5xx', report.mixed.status5xx, '= 0', (v) => v === 0));
    out.push(check('mixed c=64: RSS end − RSS@10s (MB)', r2(report.mixed.rssEndMb - report.mixed.rssAt10sMb), '<= 10 (not growing)', (v) => v <= 10));
    const { liveAt10s, liveEnd } = report.mixed;
    if (liveAt10s && liveEnd) out.push(check('mixed c=64: live heap end − @10s (MB)', r2(liveEnd.heapUsed - liveAt10s.heapUsed), '<= 5 (no leak)', (v) => v <= 5));
  }
  return out;
}

function pad(text: string | number, width: number, left = false): string {
  const s = String(text);
  return left ? s.padEnd(width) : s.padStart(width);
}

export function printTable(report: Report): void {
  const growth = growthOf(report);
  const header = ['operation', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'peak RSS MB', '× ceiling', '10k÷1k'];
  const widths = [38, 9, 8, 8, 7, 12, 10, 8];
  const line = (cells: (string | number)[]) => cells.map((c, i) => pad(c, widths[i]!, i === 0)).join(' ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join(' '));
  const rowLine = (row: Row, label: string) =>
    line([
      label, row.rps, row.p50, row.p99, row.errors, row.peakRssMb,
      row.key === 'ceiling' ? '1.00' : (ratioOf(row, report.ceilingRps)?.toFixed(2) ?? '-') + (row.reference?.key === 'ceiling' ? '*' : ''),
      growth[row.key] !== undefined ? growth[row.key]!.toFixed(2) : '',
    ]);
  const order: ScenarioKey[] = ['ceiling', 'ceiling_c1', 'product', 'product_c1', 'product_cold', 'list', 'collection', 'availability', 'snapshot', 'checkout', 'ceiling_post', 'page', 'static'];
  for (const key of order) {
    const row = report.rows.get(key);
    if (row) console.log(rowLine(row, SCENARIOS[key].label));
  }
  if (report.floor) console.log(rowLine(report.floor, SCENARIOS.floor.label));
  console.log('* median over slices alternating with the ceiling (each slice against the ceiling slices either side); others against the run\'s mean ceiling.');
  const page = report.rows.get('page');
  if (page?.reference) console.log(`Storefront page against the static page, alternating slices: ${page.reference.ratios.join(' ')} → ${page.reference.medianRatio}`);
  const checkout = report.rows.get('checkout');
  const post = report.rows.get('ceiling_post');
  if (checkout && post && post.rps > 0) console.log(`Checkout against the ceiling handler's POST sent the same requests (${post.rps} req/s): ${r2(checkout.rps / post.rps)}`);
  const dynamicRoute = report.rows.get('product')?.sameRequest;
  if (dynamicRoute) console.log(`Product by handle against the ceiling handler behind a dynamic segment, sent the same paths (${dynamicRoute.rps} req/s): ${dynamicRoute.ratios.join(' ')} → ${dynamicRoute.medianRatio}`);
  const batch = report.rows.get('availability')?.sameRequest;
  if (batch) console.log(`Availability batch against the ceiling handler sent the same request (2.5 KB query, same answer size; ${batch.rps} req/s): ${batch.ratios.join(' ')} → ${batch.medianRatio}`);
  console.log('10k÷1k: each catalog\'s ratio to its own reference, 1k over 10k (1.0 = no growth).');
  if (report.rows1k.size) {
    console.log('\n1,000-product catalog (same scenarios; but for the page, req/s and latencies are pooled from the alternating slices, so p99 includes each slice\'s start):');
    for (const row of report.rows1k.values()) console.log(rowLine(row, `${SCENARIOS[row.key].label} @1k`));
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
          rps: r.rps, p50: r.p50, p99: r.p99, errors: r.errors, requests: r.requests, peakRssMb: r.peakRssMb,
          ratioToCeiling: ratioOf(r, report.ceilingRps), reference: r.reference ?? null, sameRequest: r.sameRequest ?? null, statusCodes: r.statusCodes,
        },
      ]),
    );
  return JSON.stringify({
    bench: {
      meta: report.meta,
      ceiling: { rps: report.ceilingRps, p99: report.ceilingP99 },
      catalog10k: obj(report.rows),
      catalog1k: obj(report.rows1k),
      floor: report.floor ? { rps: report.floor.rps, p50: report.floor.p50, p99: report.floor.p99, errors: report.floor.errors } : null,
      growth: growthOf(report),
      mixed: report.mixed ?? null,
      targets: targetsOf(report),
    },
  });
}
