import type { Market } from '@/lib/contract/catalog';
import type { NotSold } from '../_lib/data';
import { fill, type Dictionary } from '../_lib/i18n';
import { ShopLink } from './shop-link';

/**
 * A product the shopper's market does not sell (it has no price there): not the shop's 404,
 * since the product exists, but its name, that this market does not sell it, and which do.
 */
export function NotSoldHere({
  notSold,
  market,
  markets,
  t,
  fullLoads,
}: {
  notSold: NotSold;
  market: string;
  markets: Market[];
  t: Dictionary;
  /** As ProductView's: from a kept page the list loads in full (ShopLink). */
  fullLoads: boolean;
}) {
  const name = (id: string) => markets.find((m) => m.id === id)?.name ?? id;
  const names = notSold.soldIn.map(name);
  return (
    <div className="state">
      <h1>{notSold.title}</h1>
      <p>{fill(t.notSoldHere, { market: name(market) })}</p>
      {names.length > 0 && <p className="muted">{fill(t.notSoldSoldIn, { markets: names.join(', ') })}</p>}
      <ShopLink className="btn btn-primary" href="/products" fullLoad={fullLoads}>
        {t.allProducts}
      </ShopLink>
    </div>
  );
}
