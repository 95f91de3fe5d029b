// npx tsx scripts/bench/lighthouse.ts <base-url> [<base-url>…] --reference=<url> [--runs=3] [--form-factors=mobile,desktop]
//
// Lighthouse's performance category for the storefront's home, a product, a collection and a
// cart with an item, side by side with a reference page: a bare Next page, such as the
// static page `/` of scripts/bench/reference-app (`npm run bench` starts one). Each page is measured `runs` times per form
// factor in Debian's Chromium; the table has the median of each figure. Several base URLs
// (say, two builds) are measured in the same rounds, each page labelled with its host. `npm
// run bench` calls lighthouseTable() with its own server and reference.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import { CHROMIUM_ARGS } from '../../e2e/chromium-args';
import { newNonce, serializeCart } from '../../app/(storefront)/_lib/cart-codec';

export type LighthousePage = {
  label: string;
  url: string;
  /** Sent with every request of the page (e.g. a Cookie for a cart with an item). */
  headers?: Record<string, string>;
};

export type FormFactor = 'mobile' | 'desktop';

export type LighthouseOptions = {
  /** Runs per page and form factor; the table shows medians. */
  runs?: number;
  formFactors?: FormFactor[];
  chromePath?: string;
  /** Progress lines (one per Lighthouse run); the table is printed with console.log. */
  log?: (line: string) => void;
};

export type LighthouseRow = {
  label: string;
  formFactor: FormFactor;
  /** 0–100, Lighthouse's performance score. */
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /**
   * First contentful paint in the unthrottled load Lighthouse simulates from. On a loaded
   * host headless Chromium sometimes presents a page's first frame ~1 s late; the simulation
   * then counts every script that ran before it, so a late figure here explains a low score.
   */
  observedFcpMs: number;
  /** JavaScript the page loaded, compressed as sent, in KiB. */
  scriptKiB: number;
  runs: number;
};

type Sample = Omit<LighthouseRow, 'label' | 'formFactor' | 'runs'>;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

function sample(lhr: Result): Sample {
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const summary = lhr.audits['resource-summary']?.details;
  const items = summary && 'items' in summary ? (summary.items as { resourceType?: string; transferSize?: number }[]) : [];
  const script = items.find((item) => item.resourceType === 'script')?.transferSize ?? Number.NaN;
  return {
    score: Math.round((lhr.categories.performance?.score ?? Number.NaN) * 100),
    fcpMs: numeric('first-contentful-paint'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    observedFcpMs: observedFcp(lhr),
    scriptKiB: script / 1024,
  };
}

function observedFcp(lhr: Result): number {
  const details = lhr.audits.metrics?.details;
  const metrics = details && 'items' in details ? (details.items[0] as { observedFirstContentfulPaint?: number } | undefined) : undefined;
  return metrics?.observedFirstContentfulPaint ?? Number.NaN;
}

async function runOnce(chrome: LaunchedChrome, page: LighthousePage, formFactor: FormFactor): Promise<Sample> {
  const flags: Flags = {
    port: chrome.port,
    onlyCategories: ['performance'],
    output: 'json',
    logLevel: 'error',
    extraHeaders: page.headers,
  };
  // Mobile is Lighthouse's default (a mid-range phone: 4× CPU slowdown, slow 4G); desktop is its preset.
  const result = await lighthouse(page.url, flags, formFactor === 'desktop' ? desktopConfig : undefined);
  if (!result) throw new Error(`lighthouse gave no result for ${page.url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`lighthouse ${page.url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  return sample(lhr);
}

/**
 * Measures every page `runs` times per form factor and answers (and prints) the medians.
 * Pages take turns within a round, so drift on a shared host touches each of them alike, and
 * every other round runs them in reverse: of two builds' same page measured back to back, the
 * second read 1.5–8 points higher, whichever build it was.
 */
export async function lighthouseTable(pages: LighthousePage[], opts: LighthouseOptions = {}): Promise<LighthouseRow[]> {
  const runs = opts.runs ?? 3;
  const formFactors = opts.formFactors ?? ['mobile', 'desktop'];
  const log = opts.log ?? ((line: string) => console.error(line));
  // Warm the server (page cache, connections): Lighthouse measures a cold browser, not a cold server.
  for (const page of pages) await (await fetch(page.url, { headers: page.headers })).arrayBuffer();

  const profile = mkdtempSync(join(tmpdir(), 'lighthouse-chrome-'));
  const chrome = await launch({
    chromePath: opts.chromePath ?? process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
    userDataDir: profile,
    logLevel: 'silent',
  });
  const samples = new Map<string, Sample[]>();
  try {
    for (const formFactor of formFactors) {
      for (let round = 1; round <= runs; round += 1) {
        for (const page of round % 2 ? pages : [...pages].reverse()) {
          const s = await runOnce(chrome, page, formFactor);
          const key = `${formFactor}\u0000${page.label}`;
          samples.set(key, [...(samples.get(key) ?? []), s]);
          log(
            `lighthouse ${formFactor} ${round}/${runs} ${page.label}: ${s.score}, LCP ${Math.round(s.lcpMs)} ms, TBT ${Math.round(s.tbtMs)} ms, first paint observed at ${Math.round(s.observedFcpMs)} ms`,
          );
        }
      }
    }
  } finally {
    chrome.kill();
    rmSync(profile, { recursive: true, force: true });
  }

  const rows: LighthouseRow[] = formFactors.flatMap((formFactor) =>
    pages.map((page) => {
      const got = samples.get(`${formFactor}\u0000${page.label}`) ?? [];
      const of = (pick: (s: Sample) => number) => median(got.map(pick));
      return {
        label: page.label,
        formFactor,
        runs: got.length,
        score: of((s) => s.score),
        fcpMs: of((s) => s.fcpMs),
        lcpMs: of((s) => s.lcpMs),
        tbtMs: of((s) => s.tbtMs),
        cls: of((s) => s.cls),
        observedFcpMs: of((s) => s.observedFcpMs),
        scriptKiB: of((s) => s.scriptKiB),
      };
    }),
  );
  console.log(formatTable(rows));
  return rows;
}

export function formatTable(rows: LighthouseRow[]): string {
  const header = '| page | form factor | score | FCP ms | LCP ms | TBT ms | CLS | JS KiB | observed FCP ms |';
  const lines = rows.map(
    (r) =>
      `| ${r.label} | ${r.formFactor} | ${r.score} | ${Math.round(r.fcpMs)} | ${Math.round(r.lcpMs)} | ${Math.round(r.tbtMs)} | ${r.cls.toFixed(3)} | ${r.scriptKiB.toFixed(1)} | ${Math.round(r.observedFcpMs)} |`,
  );
  return [header, '|---|---|---|---|---|---|---|---|---|', ...lines].join('\n');
}

/**
 * The storefront's pages under `base`: home, the first product and first collection the home
 * page links to, and the cart holding one of that product's variants (the cart is a cookie
 * of ids; see app/(storefront)/_lib/cart-codec.ts).
 */
export async function storefrontPages(base: string): Promise<LighthousePage[]> {
  const home = await (await fetch(new URL('/', base))).text();
  const product = /href="\/products\/([a-z0-9-]+)"/.exec(home)?.[1];
  const collection = /href="\/collections\/([a-z0-9-]+)"/.exec(home)?.[1];
  if (!product || !collection) throw new Error(`no product or collection link on ${base}/`);
  const productHtml = await (await fetch(new URL(`/products/${product}`, base))).text();
  const variantId = /\?variant=([A-Za-z0-9_-]+)/.exec(productHtml)?.[1];
  if (!variantId) throw new Error(`no variant on ${base}/products/${product}`);
  const cart = serializeCart({ nonce: newNonce(), lines: [{ variantId, quantity: 1, productHandle: product }], bundles: [] });
  // A first visit opens the market the browser's languages point to; Lighthouse's Chrome says
  // en-US. A Swedish shopper's browser lands in the default market, whose pages are kept.
  const shopper = { 'Accept-Language': 'sv-SE,sv;q=0.9,en;q=0.8' };
  return [
    { label: 'home', url: new URL('/', base).href, headers: shopper },
    { label: 'product', url: new URL(`/products/${product}`, base).href, headers: shopper },
    { label: 'collection', url: new URL(`/collections/${collection}`, base).href, headers: shopper },
    { label: 'cart (1 item)', url: new URL('/cart', base).href, headers: { ...shopper, Cookie: `cart=${cart}` } },
  ];
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      reference: { type: 'string' },
      runs: { type: 'string', default: '3' },
      'form-factors': { type: 'string', default: 'mobile,desktop' },
    },
  });
  const [first] = positionals;
  const reference = values.reference;
  if (!first || !reference)
    throw new Error(
      'usage: npx tsx scripts/bench/lighthouse.ts <base-url> [<base-url>…] --reference=<url> [--runs=3] [--form-factors=mobile,desktop]',
    );
  const formFactors = values['form-factors'].split(',').map((f) => {
    if (f !== 'mobile' && f !== 'desktop') throw new Error(`unknown form factor ${f}`);
    return f;
  });
  // Interleaved (home on each base, then product on each…): one page on every build back to back.
  const perBase = await Promise.all(
    positionals.map(async (base) => {
      const prefix = positionals.length > 1 ? `${new URL(base).host} ` : '';
      return (await storefrontPages(base)).map((page) => ({ ...page, label: prefix + page.label }));
    }),
  );
  const pages: LighthousePage[] = perBase[0]!.flatMap((_, i) => perBase.map((list) => list[i]!));
  pages.push({ label: 'reference (bare Next page)', url: reference });
  await lighthouseTable(pages, { runs: Number(values.runs), formFactors });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
