import type { DbOrTx } from '@/db/client';
import type { SiteContext } from '@/lib/platform/auth/credentials';
import { DomainError } from '@/lib/platform/errors';
import { chooseMarket, type MarketChoice } from '../markets';

/**
 * The market and locale of a signup, chosen exactly like a read's `?market=&locale=`,
 * with the errors pointing into the body (`/market`, `/locale`) instead of the query.
 */
export async function chooseSignupMarket(
  database: DbOrTx,
  site: SiteContext['site'],
  requested: { market?: string; locale?: string },
): Promise<MarketChoice> {
  try {
    return await chooseMarket(database, site, requested);
  } catch (error) {
    if (error instanceof DomainError && (error.code === 'unknown_market' || error.code === 'unsupported_locale')) {
      const errors = error.options.errors?.map((e) => ({ ...e, pointer: e.pointer.replace(/^#\/query\//, '/') }));
      throw new DomainError(error.code, error.detail, { ...error.options, errors });
    }
    throw error;
  }
}
