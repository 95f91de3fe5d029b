/* eslint-disable @next/next/no-img-element -- a bare page: plain tags, no image optimiser */
import { statSync } from 'node:fs';
import { Choice } from './choice';

// A page Next renders on the first request for its path and keeps (on-demand ISR, as the
// shop keeps its product pages): over the whole catalog every view is such a first render.
// Plain server components, one small client island, and about as many bytes of HTML (with
// its inline RSC payload) as the storefront's product page, whose saved copy gives the size.
export const dynamic = 'force-static';
export const dynamicParams = true;
export const revalidate = false;

export function generateStaticParams() {
  return [];
}

export const metadata = { title: 'A bare rendered page' };

// HTML plus inline RSC payload per card below, measured on this page.
const BYTES_PER_CARD = 620;
const BYTES_AROUND = 7340;

function cards() {
  let target = 40_000;
  try {
    target = statSync(process.env.REFERENCE_PAGE_FILE).size;
  } catch {
    // no saved page (a build): the default
  }
  return Math.max(1, Math.round((target - BYTES_AROUND) / BYTES_PER_CARD));
}

export default async function Page({ params }) {
  const { handle } = await params;
  const count = cards();
  return (
    <main>
      <nav>
        <a href="/rendered">Products</a>
      </nav>
      <article>
        <h1>{handle}</h1>
        <img src={`/images/${handle}.svg`} alt={handle} width="600" height="600" />
        <p>
          A product described in a few sentences, as a shop describes it: what it is, what it is made of, how big it is and how to care for
          it.
        </p>
        <Choice options={['Small', 'Medium', 'Large']} />
      </article>
      <section>
        <h2>More products</h2>
        <ul>
          {Array.from({ length: count }, (_, i) => (
            <li key={i}>
              <a href={`/rendered/${handle}-${i}`}>
                <img src={`/images/${handle}-${i}.svg`} alt="" width="300" height="300" loading="lazy" />
                <span>Product number {i}</span>
                <span>{(i * 37) % 500} kr</span>
              </a>
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}
