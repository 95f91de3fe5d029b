import 'server-only';
import { env } from '@/lib/env';
import { isLoopbackHost } from '@/lib/loopback';
import { processSlot } from '@/lib/process-state';

/**
 * Where the API lives and the Site credential to present. Read on every call (not at
 * import) so `next build` never needs either, and only on the server: this module is
 * `server-only`, so importing it from a client component fails the build. Without
 * SITE_API_BASE_URL the API is this deployment, called in-process (./in-process.ts); its
 * requests still name this server's loopback origin, which the API's links are made from.
 */
export function clientConfig(): { baseUrl: string; credential: string | undefined; nearby: boolean; inProcess: boolean } {
  const settings = env();
  const inProcess = !settings.SITE_API_BASE_URL;
  const baseUrl = (settings.SITE_API_BASE_URL ?? `http://127.0.0.1:${settings.PORT}`).replace(/\/+$/, '');
  return { baseUrl: `${baseUrl}/site/v1`, credential: settings.SITE_API_CREDENTIAL, nearby: inProcess || isLoopback(baseUrl), inProcess };
}

/** An API on this machine: nothing to save on the wire, only CPU to spend on compression. */
function isLoopback(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

type ShopperSource = () => Promise<string | null>;
const holder = processSlot<{ source?: ShopperSource }>('siteClientShopper', () => ({}));

/**
 * How the client learns the shopper of the request it runs in, for calls that do not name
 * one (reads, mostly): the API then charges them to that shopper's budget as well as the
 * credential's. A front end sets it once; without it such calls name no shopper.
 */
export function nameShoppersWith(source: ShopperSource): void {
  holder.source = source;
}

export async function currentShopper(): Promise<string | null> {
  return (await holder.source?.()) ?? null;
}
