import Link from 'next/link';
import type { Market } from '@/lib/contract/catalog';
import type { NotSold } from '../_lib/data';
import { fill, type Dictionary } from '../_lib/i18n';

/**
 * A product the shopper's market does not sell (it has no price there): not the shop's 404,
 * since the product exists, but its name, that this market does not sell it, and which do.
 */
export function NotSoldHere({ notSold, market, markets, t }: { notSold: NotSold; market: string; markets: Market[]; t: Dictionary }) {
  const name = (id: string) => markets.find((m) => m.id === id)?.name ?? id;
  const names = notSold.soldIn.map(name);
  return (
    <div className="state">
      <h1>{notSold.title}</h1>
      <p>{fill(t.notSoldHere, { market: name(market) })}</p>
      {names.length > 0 && <p className="muted">{fill(t.notSoldSoldIn, { markets: names.join(', ') })}</p>}
      <Link className="btn btn-primary" href="/products">
        {t.allProducts}
      </Link>
    </div>
  );
}
