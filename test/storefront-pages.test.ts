// The shop-page pattern (SHOP_PAGE) decides which requests get the render gate, the shopper's
// read limit and the outage page. It is written by hand, so it is held here to the page
// folders Next serves: a new page folder it does not cover, or a path it covers that no
// folder serves, fails this test instead of quietly going without those protections.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SHOP_PAGE } from '@/lib/storefront/routing';

const STOREFRONT = new URL('../app/(storefront)/', import.meta.url).pathname;

/** `products/[handle]/page.tsx` → `/products/[handle]`; route groups `(x)` add no segment. */
function pageRoutes(): string[] {
  return readdirSync(STOREFRONT, { recursive: true, encoding: 'utf8' })
    .filter((path) => path === 'page.tsx' || path.endsWith('/page.tsx'))
    .map(
      (path) =>
        '/' +
        path
          .slice(0, -'page.tsx'.length)
          .split('/')
          .filter((s) => s && !/^\(.*\)$/.test(s))
          .join('/'),
    )
    .sort();
}

/** A concrete path for a route: each dynamic segment filled with a plausible value. */
const concrete = (route: string) => route.replace(/\[\[?\.{0,3}(\w+)\]\]?/g, (_, name: string) => `sample-${name}`);

describe('the shop-page pattern', () => {
  const routes = pageRoutes();

  it("finds the storefront's page folders", () => {
    expect(routes).toContain('/');
    expect(routes).toContain('/products/[handle]');
  });

  it.each(routes)('covers %s', (route) => {
    expect(SHOP_PAGE.test(concrete(route))).toBe(true);
  });

  it('covers no path that no page folder serves', () => {
    const served = routes.map((route) => new RegExp(`^${route.replace(/\[[^\]]+\]/g, '[^/]+')}$`));
    for (const route of routes) {
      for (const probe of [`${concrete(route)}/not-a-page`, `${concrete(route)}/a/b`]) {
        const path = probe.replace(/^\/\//, '/');
        expect(SHOP_PAGE.test(path), path).toBe(served.some((page) => page.test(path)));
      }
    }
  });

  it('leaves the API, the docs, files and route handlers alone', () => {
    for (const path of ['/site/v1/site', '/docs', '/healthz', '/visit', '/shop-api/search', '/icon.svg', '/robots.txt']) {
      expect(SHOP_PAGE.test(path), path).toBe(false);
    }
  });
});
