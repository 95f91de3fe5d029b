import type { Metadata } from 'next';
import { ProductGrid } from './_components/product-card';
import { ShopLink } from './_components/shop-link';
import { fill } from './_lib/i18n';
import { shop, snapshot } from './_lib/shop';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  const { site, texts } = await shop();
  return { title: texts.heroTitle ? `${site.name} — ${texts.heroTitle}` : site.name, description: texts.heroText ?? undefined };
}

export default async function HomePage() {
  const [{ t, locale, site, texts }, home] = await Promise.all([shop(), snapshot()]);
  const art = home.featured.filter((p) => p.featuredImage).slice(0, 4);
  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <div>
          {/* The shop's own words (its settings); a shop that has none yet shows its name. */}
          <h1 id="hero-title">{texts.heroTitle ?? site.name}</h1>
          {texts.heroText ? <p>{texts.heroText}</p> : null}
          <ShopLink fullLoad={false} className="btn btn-primary" href="/products">
            {t.heroCta}
          </ShopLink>
        </div>
        <div className="hero-art" aria-hidden="true">
          {art.map((p) => (
            // eslint-disable-next-line @next/next/no-img-element -- the seed's SVGs need no optimiser
            <img key={p.id} src={p.featuredImage!.url} alt="" width={p.featuredImage!.width} height={p.featuredImage!.height} />
          ))}
        </div>
      </section>

      <section className="section" aria-labelledby="collections-title">
        <div className="section-head">
          <h2 id="collections-title">{t.shopByCollection}</h2>
        </div>
        <ul className="collection-tiles">
          {home.navigation.map((c, i) => (
            <li key={c.handle}>
              <ShopLink fullLoad={false} href={`/collections/${c.handle}`}>
                {c.image ? (
                  // On a phone the first tiles are in the first screen (the hero's pictures are
                  // hidden there) and the first is its largest paint: not lazy, so it is asked
                  // for with the HTML instead of after layout.
                  // eslint-disable-next-line @next/next/no-img-element -- the seed's SVGs need no optimiser
                  <img src={c.image.url} alt="" width={c.image.width} height={c.image.height} loading={i < 2 ? 'eager' : 'lazy'} />
                ) : null}
                <strong>{c.title}</strong>
                <span>{fill(t.productsCount, { count: c.productCount })}</span>
              </ShopLink>
            </li>
          ))}
        </ul>
      </section>

      <section className="section" aria-labelledby="featured-title">
        <div className="section-head">
          <h2 id="featured-title">{t.featured}</h2>
          <ShopLink fullLoad={false} href="/products">
            {t.allProducts}
          </ShopLink>
        </div>
        <ProductGrid products={home.featured} locale={locale} t={t} fullLoads eager={4} />
      </section>
    </>
  );
}
