import 'server-only';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { authenticateCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import { dropDeadPages, handlesToRender, storedAddresses, type PageAddress } from '@/lib/storefront/stored-pages';
import { loadMarkets } from '@/lib/commerce/markets';
import { db } from '@/lib/db';
import { env } from '@/lib/env';
import { apiIsThisServer } from '@/lib/storefront/page-key';
import { storesPagesOf } from '@/lib/storefront/kept-pages';
import type { PassContext, PassSummary } from '@/lib/jobs/types';
import { chooseLocality, LOCALE_COOKIE, MARKET_COOKIE } from '@/lib/storefront/routing';
import { logger } from '@/lib/platform/observability/logger';

type Address = Omit<PageAddress, 'handle'>;
/** Why a pass ended before the catalog was rendered: the next pass goes on from there. */
type Interruption = 'stopped' | 'out of time' | 'the catalog changed';
type Outcome = { rendered: number; interrupted?: Interruption };

/** How often the timer looks for a new catalog version (one indexed read). */
export const LOOK_EVERY_MS = 2000;
/** Even without a new version: whether shoppers started asking at addresses not rendered ahead yet. */
const FULL_PASS_EVERY_MS = 60_000;
/** Addresses rendered ahead: the shop's own, and those with the most kept pages. */
const ADDRESSES = 4;
const BATCH = 64;
/** Before each batch: how long the worker listens for shoppers, and how busy they may keep the process. */
const PROBE_MS = 100;
const BUSY = 0.5;
/** Another build's pages may still be served by its instances this long into a deploy. */
const OTHER_BUILD_GRACE_MS = 10 * 60_000;

/**
 * Renders every published product's page ahead of shoppers, after a start and after each
 * catalog change, so a shopper landing on any product gets a kept page (docs/storefront.md).
 * One page at a time, through the shop's own front door, exactly as a shopper's view renders
 * it: the page lands in the database by the same path (the page cache's onPage). It yields to
 * shoppers: while they keep the process more than half busy, it waits.
 *
 * Addresses: the shop's own origin (STOREFRONT_ORIGIN) in its default market and language,
 * and the addresses kept pages were asked at before (the most asked first). Several
 * instances may do this at once; each starts at a random handle and skips pages another
 * has kept meanwhile, so they mostly share the work. A pass that runs out of time or is
 * stopped leaves the rest to the next (lib/jobs runs it on a timer, from cron or once; the
 * timer runs under `next dev` only when PAGE_RENDER_AHEAD=on asks: lib/jobs/render-ahead.ts).
 * Skipped with PAGE_RENDER_AHEAD=off or PAGE_STORE=off, during `next build`, or when the
 * pages' API is another server.
 */
export function renderAheadRunner(): { pass: (context: PassContext) => Promise<PassSummary> } {
  const settings = env();
  let done: { version: number; addresses: string; at: number } | null = null;

  return {
    async pass(context): Promise<PassSummary> {
      const credential = settings.SITE_API_CREDENTIAL;
      if (settings.PAGE_STORE === 'off' || settings.PAGE_RENDER_AHEAD === 'off')
        return { skipped: 'PAGE_RENDER_AHEAD or PAGE_STORE is off' };
      if (!credential) return { skipped: 'no SITE_API_CREDENTIAL' };
      if (!apiIsThisServer(settings)) return { skipped: "the pages' API is another server" };
      if (!context.frontDoor) return { skipped: 'no front door to render through (set STOREFRONT_ORIGIN)' };
      const frontDoor = context.frontDoor;
      const auth = await authenticateCredential(db(), credential);
      if (!auth) return { skipped: 'SITE_API_CREDENTIAL is not a valid credential' };
      const { site } = auth;
      if (done && done.version === site.catalogVersion && Date.now() - done.at < FULL_PASS_EVERY_MS) return { rendered: 0 };
      const addresses = await addressesFor(site);
      const signature = addresses.map((a) => `${a.origin} ${a.market} ${a.locale}`).join(',');
      // Nothing new since the last pass: no scan of the catalog (~20 ms of queries at 10,000 products).
      if (done && done.version === site.catalogVersion && done.addresses === signature) {
        done.at = Date.now();
        return { rendered: 0 };
      }
      const started = Date.now();
      const total = { rendered: 0 };
      const stop = (): Interruption | undefined =>
        context.stopped() ? 'stopped' : Date.now() >= context.deadline ? 'out of time' : undefined;
      for (const address of addresses) {
        const outcome = await renderMissing(address, site.catalogVersion, frontDoor, stop);
        total.rendered += outcome.rendered;
        if (outcome.interrupted) {
          // Said, so that an operator (and the bench) can tell a slow first pass from a short one.
          logger().info(
            { job: 'render-ahead', siteId: site.id },
            `[storefront] product pages ahead of shoppers, pass not finished (${outcome.interrupted}): ${total.rendered} rendered in ${secondsSince(started)} s; the next pass goes on`,
          );
          return { ...total, finished: 'no' };
        }
      }
      await dropDeadPages(db(), site.id, OTHER_BUILD_GRACE_MS);
      done = { version: site.catalogVersion, addresses: signature, at: Date.now() };
      if (total.rendered > 0) {
        logger().info(
          { job: 'render-ahead', siteId: site.id },
          `[storefront] product pages ahead of shoppers: ${total.rendered} rendered in ${secondsSince(started)} s (catalog version ${site.catalogVersion})`,
        );
      }
      return { ...total, catalogVersion: site.catalogVersion };
    },
  };

  async function addressesFor(site: SiteContext['site']): Promise<Address[]> {
    const markets = await loadMarkets(db(), site);
    const offered = (a: Address) => {
      const choice = chooseLocality(markets, site.defaultMarketId, { market: a.market, locale: a.locale });
      return choice?.market.id === a.market && choice.locale === a.locale;
    };
    const list: Address[] = [];
    const own = settings.STOREFRONT_ORIGIN;
    const home = chooseLocality(markets, site.defaultMarketId, {});
    if (own && home) list.push({ siteId: site.id, origin: own, market: home.market.id, locale: home.locale });
    for (const a of await storedAddresses(db(), site.id, ADDRESSES)) {
      if (list.length >= ADDRESSES) break;
      if (!list.some((b) => b.origin === a.origin && b.market === a.market && b.locale === a.locale)) list.push(a);
    }
    return list.filter((a) => storesPagesOf(a.origin) && offered(a));
  }

  /**
   * Renders the address's pages that are missing or older than their product's latest
   * change (or the Site's), from a random handle on, then from the start.
   */
  async function renderMissing(
    address: Address,
    version: number,
    frontDoor: string,
    isStopped: () => Interruption | undefined,
  ): Promise<Outcome> {
    const tried = new Set<string>();
    let rendered = 0;
    for (const from of [randomStart(), '']) {
      let after = from;
      for (;;) {
        await shoppersLeaveRoom(isStopped);
        const batch = await handlesToRender(db(), address, after, BATCH);
        if (batch.length === 0) break;
        after = batch[batch.length - 1]!;
        // A page rendered but not kept (a 404 meanwhile, a failed write) is not asked for twice.
        for (const handle of batch.filter((h) => !tried.has(h))) {
          tried.add(handle);
          const stopped = isStopped();
          if (stopped) return { rendered, interrupted: stopped };
          await renderOne(frontDoor, address, handle);
          rendered++;
        }
        const stopped = isStopped();
        if (stopped) return { rendered, interrupted: stopped };
        const now = await authenticateCredential(db(), settings.SITE_API_CREDENTIAL!);
        if (!now || now.site.catalogVersion !== version) return { rendered, interrupted: 'the catalog changed' };
      }
    }
    return { rendered };
  }

  /** One view of the page, as a shopper of that address would ask for it; the body is not needed. */
  async function renderOne(frontDoor: string, address: Address, handle: string) {
    const origin = new URL(address.origin);
    const response = await fetch(new URL(`/products/${handle}`, frontDoor), {
      headers: {
        'x-forwarded-host': origin.host,
        'x-forwarded-proto': origin.protocol.slice(0, -1),
        cookie: `${MARKET_COOKIE}=${encodeURIComponent(address.market)}; ${LOCALE_COOKIE}=${encodeURIComponent(address.locale)}`,
        'accept-encoding': 'gzip',
        'user-agent': 'site-delivery-render-ahead',
      },
    });
    await response.arrayBuffer();
  }
}

/**
 * Rendering ahead takes only what shoppers leave. It pauses for a moment, its own renders
 * stopped, and measures how busy the event loop was meanwhile: past half busy, shoppers are
 * being served, and it waits a second at a time until they are not.
 */
async function shoppersLeaveRoom(isStopped: () => unknown): Promise<void> {
  for (;;) {
    const before = performance.eventLoopUtilization();
    await sleep(PROBE_MS);
    if (performance.eventLoopUtilization(before).utilization < BUSY || isStopped()) return;
    await sleep(1000);
  }
}

function randomStart(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return alphabet[Math.floor(Math.random() * alphabet.length)]!;
}

function secondsSince(started: number): string {
  return ((Date.now() - started) / 1000).toFixed(1);
}
