import type { Dictionary } from '../../_lib/i18n';
import { ShopLink } from '../shop-link';

/** What every step of the checkout shows for a session that expired: back to the cart, which still holds the lines. */
export function SessionExpired({ t }: { t: Dictionary }) {
  return (
    <div className="state" role="alert">
      <h1>{t.secureCheckout}</h1>
      <p>{t.sessionExpired}</p>
      <ShopLink fullLoad={false} className="btn btn-primary" href="/cart">
        {t.backToCart}
      </ShopLink>
    </div>
  );
}
