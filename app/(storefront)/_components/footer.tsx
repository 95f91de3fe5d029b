import { formatLanguage } from '../_lib/format';
import { fill } from '../_lib/i18n';
import { newsletterStrings } from '../_lib/i18n/islands';
import type { Shop } from '../_lib/shop';
import { NewsletterForm } from './newsletter-form';
import { SHOP_PAGE_LINKS } from './shop-page-links';
import { ShopLink } from './shop-link';

type Props = { shop: Shop; navigation: { handle: string; title: string }[]; marketName: string; fullLoads: boolean };

export function Footer({ shop, navigation, marketName, fullLoads }: Props) {
  const { t, site, market, locale, texts } = shop;
  return (
    <footer className="site-footer">
      <div className="container">
        <div className="footer-grid">
          <section aria-labelledby="newsletter-title">
            <h2 id="newsletter-title">{t.newsletterTitle}</h2>
            {texts.newsletterPitch ? <p className="muted">{texts.newsletterPitch}</p> : null}
            <NewsletterForm t={newsletterStrings(t)} />
          </section>
          <nav aria-labelledby="footer-collections">
            <h2 id="footer-collections">{t.collections}</h2>
            <ul>
              {navigation.map((c) => (
                <li key={c.handle}>
                  <ShopLink href={`/collections/${c.handle}`} fullLoad={fullLoads}>
                    {c.title}
                  </ShopLink>
                </li>
              ))}
            </ul>
          </nav>
          <nav aria-labelledby="footer-shop">
            <h2 id="footer-shop">{site.name}</h2>
            <ul>
              <li>
                <ShopLink href="/products" fullLoad={fullLoads}>
                  {t.allProducts}
                </ShopLink>
              </li>
              <li>
                <ShopLink href="/cart" fullLoad={fullLoads}>
                  {t.cart}
                </ShopLink>
              </li>
            </ul>
          </nav>
        </div>
        <nav aria-label={t.legalNav}>
          <ul className="footer-legal">
            {SHOP_PAGE_LINKS.map((l) => (
              <li key={l.key}>
                <ShopLink href={l.href} fullLoad={fullLoads}>
                  {l.title(t)}
                </ShopLink>
              </li>
            ))}
          </ul>
        </nav>
        <p className="fineprint">
          © {site.business?.legalName ?? site.name} · {marketName} · {market.currency} ·{' '}
          {/* A first visit follows the browser's language, so say which one this is. */}
          {fill(t.shownIn, { language: formatLanguage(locale, locale) })}
        </p>
      </div>
    </footer>
  );
}
