import 'server-only';
import { env } from '@/lib/env';

/**
 * Where the API lives and the Site credential to present. Read on every call (not at
 * import) so `next build` never needs either, and only on the server: this module is
 * `server-only`, so importing it from a client component fails the build.
 */
export function clientConfig(): { baseUrl: string; credential: string | undefined } {
  const settings = env();
  const baseUrl = (settings.SITE_API_BASE_URL ?? `http://127.0.0.1:${settings.PORT}`).replace(/\/+$/, '');
  return { baseUrl: `${baseUrl}/site/v1`, credential: settings.SITE_API_CREDENTIAL };
}
