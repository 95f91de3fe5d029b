import type { Metadata } from 'next';
import type { SitePageKey } from '@/lib/contract/catalog';
import { fetchSitePage } from '@/lib/site-client';
import { formatLanguage } from '../_lib/format';
import { fill, type Dictionary } from '../_lib/i18n';
import { markdownHtml } from '../_lib/markdown';
import { shop, type Shop } from '../_lib/shop';
import { SHOP_PAGE_LINKS } from './shop-page-links';

function titleOf(key: SitePageKey, t: Dictionary): string {
  return SHOP_PAGE_LINKS.find((l) => l.key === key)!.title(t);
}

export async function shopPageMetadata(key: SitePageKey): Promise<Metadata> {
  const { site, t } = await shop();
  return { title: `${titleOf(key, t)} | ${site.name}` };
}

function countryName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** Who runs the shop, from its settings: the imprint and the contact page show it whatever their text says. */
function Business({ business, locale }: { business: NonNullable<Shop['site']['business']>; locale: string }) {
  const { legalName, postalAddress, contactEmail } = business;
  if (!legalName && !postalAddress && !contactEmail) return null;
  return (
    <address className="business">
      {legalName ? <strong>{legalName}</strong> : null}
      {postalAddress ? (
        <>
          {postalAddress.lines.map((line, i) => (
            <span key={i}>{line}</span>
          ))}
          <span>
            {postalAddress.postalCode} {postalAddress.city}
            {postalAddress.region ? `, ${postalAddress.region}` : ''}
          </span>
          <span>{countryName(postalAddress.country, locale)}</span>
        </>
      ) : null}
      {contactEmail ? <a href={`mailto:${contactEmail}`}>{contactEmail}</a> : null}
    </address>
  );
}

/**
 * One of the shop's own pages, from the Markdown of its settings in the shopper's language
 * (else the language the shop wrote it in, said so). A page the settings lack says so
 * plainly: it is still the shop's page, never a 404.
 */
export async function ShopPage({ page }: { page: SitePageKey }) {
  const { t, locale, site } = await shop();
  const found = await fetchSitePage(page, locale);
  const otherLanguage = found.textLocale && found.textLocale.split('-')[0] !== locale.split('-')[0];
  return (
    <article className="shop-page">
      <header className="page-head">
        <h1>{titleOf(page, t)}</h1>
      </header>
      {(page === 'imprint' || page === 'contact') && site.business ? <Business business={site.business} locale={locale} /> : null}
      {found.markdown === null ? (
        <p className="notice">{t.pageMissing}</p>
      ) : (
        <>
          {otherLanguage ? (
            <p className="muted">{fill(t.pageInLanguage, { language: formatLanguage(found.textLocale!, locale) })}</p>
          ) : null}
          <div
            className="prose"
            lang={otherLanguage ? found.textLocale!.split('-')[0] : undefined}
            dangerouslySetInnerHTML={{ __html: markdownHtml(found.markdown) }}
          />
        </>
      )}
    </article>
  );
}
