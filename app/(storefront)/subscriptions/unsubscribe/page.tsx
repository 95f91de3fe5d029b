import type { Metadata } from 'next';
import { UnsubscribeForm } from '../../_components/unsubscribe-form';
import { unsubscribeStrings } from '../../_lib/i18n/islands';
import { shop } from '../../_lib/shop';

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<{ token?: string | string[] }> };

export async function generateMetadata(): Promise<Metadata> {
  const { site, t } = await shop();
  // The token never goes to another site as a Referer; same-origin, so the button's form POST
  // without JavaScript carries a real Origin (see the confirm page).
  return { title: `${t.unsubscribeTitle} | ${site.name}`, robots: { index: false, follow: false }, referrer: 'same-origin' };
}

/**
 * The visible unsubscribe link of every mail. Opening it changes nothing — mail scanners
 * follow links — the button does.
 */
export default async function UnsubscribePage({ searchParams }: Props) {
  const [{ token }, { t }] = await Promise.all([searchParams, shop()]);
  return (
    <div className="state">
      <h1>{t.unsubscribeTitle}</h1>
      {typeof token === 'string' && token ? (
        <UnsubscribeForm token={token} t={unsubscribeStrings(t)} />
      ) : (
        <p className="notice notice-error" role="alert">
          {t.linkInvalid}
        </p>
      )}
    </div>
  );
}
