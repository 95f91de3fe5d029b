import Link from 'next/link';
import { formatLanguage } from '../_lib/format';
import { fill } from '../_lib/i18n';
import { newsletterStrings } from '../_lib/i18n/islands';
import type { Shop } from '../_lib/shop';
import { NewsletterForm } from './newsletter-form';

type Props = { shop: Shop; navigation: { handle: string; title: string }[]; marketName: string };

export function Footer({ shop, navigation, marketName }: Props) {
  const { t, site, market, locale } = shop;
  return (
    <footer className="site-footer">
      <div className="container">
        <div className="footer-grid">
          <section aria-labelledby="newsletter-title">
            <h2 id="newsletter-title">{t.newsletterTitle}</h2>
            <p className="muted">{t.newsletterText}</p>
            <NewsletterForm t={newsletterStrings(t)} />
          </section>
          <nav aria-labelledby="footer-collections">
            <h2 id="footer-collections">{t.collections}</h2>
            <ul>
              {navigation.map((c) => (
                <li key={c.handle}><Link href={`/collections/${c.handle}`}>{c.title}</Link></li>
              ))}
            </ul>
          </nav>
          <nav aria-labelledby="footer-shop">
            <h2 id="footer-shop">{site.name}</h2>
            <ul>
              <li><Link href="/products">{t.allProducts}</Link></li>
              <li><Link href="/cart">{t.cart}</Link></li>
              <li><a href="/docs">Site Delivery API</a></li>
            </ul>
          </nav>
        </div>
        <p className="fineprint">
          © {site.name} · {marketName} · {market.currency} ·{' '}
          {/* A first visit follows the browser's language, so say which one this is. */}
          {fill(t.shownIn, { language: formatLanguage(locale, locale) })}
        </p>
      </div>
    </footer>
  );
}
