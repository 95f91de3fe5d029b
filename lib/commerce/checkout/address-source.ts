import { and, asc, eq, or, sql } from 'drizzle-orm';
import { addressBook } from '@/db/schema';
import type { Database, DbOrTx } from '@/db/client';
import { MAX_ADDRESS_SUGGESTIONS, type AddressSuggestion, type SuggestedAddress } from '@/lib/contract/checkout';
import type { SiteContext } from '@/lib/platform/auth/credentials';
import { sessionMarket, type Clock } from './sessions';
import { loadSession } from './session-storage';
import { sessionCountry } from './view';

/**
 * Where address suggestions come from. The built-in source reads the seeded address
 * book; a provider (Loqate, Google Places…) implements the same method. The query is
 * what a shopper is typing: implementations must not log or keep it.
 */
export interface AddressSource {
  readonly name: string;
  suggest(request: { country: string; query: string; limit: number }): Promise<AddressSuggestion[]>;
}

/** `%`, `_` and the escape itself are literal in what the shopper typed. */
function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function label(a: SuggestedAddress): string {
  return a.country === 'US'
    ? `${a.line1}, ${a.city}${a.region ? `, ${a.region}` : ''} ${a.postalCode}`
    : `${a.line1}, ${a.postalCode} ${a.city}`;
}

/** The built-in source: prefix search on street, postal code (spaces ignored) and city within a country. */
export function addressBookSource(database: DbOrTx): AddressSource {
  return {
    name: 'address-book',
    async suggest({ country, query, limit }) {
      const q = query.trim().toLowerCase();
      const street = likePrefix(q);
      const postal = likePrefix(q.replace(/\s+/g, ''));
      // SQLite's lower() only folds ASCII, so a city is also matched with its first letter as typed in upper case (Ö…).
      const city = likePrefix(q.charAt(0).toUpperCase() + q.slice(1));
      const rows = await database
        .select()
        .from(addressBook)
        .where(
          and(
            eq(addressBook.country, country),
            or(
              sql`${addressBook.streetKey} like ${street} escape '\\'`,
              sql`replace(${addressBook.postalCode}, ' ', '') like ${postal} escape '\\'`,
              sql`lower(${addressBook.city}) like ${street} escape '\\'`,
              sql`${addressBook.city} like ${city} escape '\\'`,
            ),
          ),
        )
        .orderBy(asc(addressBook.streetKey), asc(addressBook.postalCode), asc(addressBook.id))
        .limit(limit);
      return rows.map((r) => {
        const address: SuggestedAddress = {
          line1: r.street,
          postalCode: r.postalCode,
          city: r.city,
          ...(r.region ? { region: r.region } : {}),
          country: r.country,
        };
        return { id: r.id, label: label(address), address };
      });
    },
  };
}

/** The one place that picks the address source. */
export function addressSourceFor(database: DbOrTx): AddressSource {
  return addressBookSource(database);
}

/**
 * Up to ten addresses in the session's country (its shipping address's, else its
 * market's first country) starting with what the shopper typed. Works in every state:
 * it reads, it changes nothing.
 */
export async function suggestAddresses(database: Database, site: SiteContext['site'], id: string, query: string, clock: Clock = {}) {
  const session = await loadSession(database, site.id, id, clock.now ?? Date.now());
  const market = await sessionMarket(database, site, session.marketId);
  const country = sessionCountry(session, market);
  return addressSourceFor(database).suggest({ country, query, limit: MAX_ADDRESS_SUGGESTIONS });
}
