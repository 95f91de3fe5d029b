import type { Metadata } from 'next';
import { ConfirmForm } from '../../_components/confirm-form';
import { ShopLink } from '../../_components/shop-link';
import { confirmStrings } from '../../_lib/i18n/islands';
import { shop } from '../../_lib/shop';

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<{ token?: string | string[] }> };

export async function generateMetadata(): Promise<Metadata> {
  const { site, t } = await shop();
  // The URL holds a token: never indexed, never sent to another site as a Referer. Not
  // no-referrer: then a browser sends `Origin: null` with the button's form POST (without
  // JavaScript), and Next refuses a server action from an unknown origin.
  return { title: `${t.subscriptionTitle} | ${site.name}`, robots: { index: false, follow: false }, referrer: 'same-origin' };
}

const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * The double opt-in link of a confirmation mail. Opening it changes nothing — mail
 * scanners follow every link, and a GET or HEAD of it must not sign anyone up — the
 * button does (a POST, with or without JavaScript).
 */
export default async function ConfirmSubscriptionPage({ searchParams }: Props) {
  const [{ token }, { t }] = await Promise.all([searchParams, shop()]);
  return (
    <div className="state">
      <h1>{t.subscriptionTitle}</h1>
      {typeof token === 'string' && TOKEN.test(token) ? (
        <ConfirmForm token={token} t={confirmStrings(t)} />
      ) : (
        <p className="notice notice-error" role="alert">
          {t.linkInvalid}
        </p>
      )}
      <p className="mt-24">
        <ShopLink fullLoad={false} className="btn btn-secondary" href="/">
          {t.continueShopping}
        </ShopLink>
      </p>
    </div>
  );
}
