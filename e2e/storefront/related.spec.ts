import { queryDb, expect, expectAccessible, openProduct, test, useLocale } from './helpers';

// "More from this collection" on a product page: other products of its first collection
// (by navigation order), read from the API's list with `collection=<handle>`.
async function firstCollection(productHandle: string, locale: string) {
  const [row] = await queryDb<{ handle: string; title: string }>(
    `select c.handle, coalesce(own.title, c.handle) as title from collection_products cp
       join collections c on c.id = cp.collection_id and c.status = 'published'
       join products p on p.id = cp.product_id
       left join collection_translations own on own.collection_id = c.id and own.locale = ?
     where p.handle = ? order by c.position, c.id limit 1`,
    [locale, productHandle],
  );
  return row!;
}

for (const [locale, heading] of [
  ['en-SE', 'More from'],
  ['sv-SE', 'Mer från'],
] as const) {
  test(`a product page shows more from its collection (${locale})`, async ({ page, context }, testInfo) => {
    await useLocale(context, 'se', locale);
    await openProduct(page, '/products/fjord-ceramic-mug');
    const collection = await firstCollection('fjord-ceramic-mug', locale);
    const section = page.getByRole('region', { name: `${heading} ${collection.title}` });
    await expect(section).toBeVisible();
    const links = section.getByRole('link');
    const count = await links.count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(4);
    const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).not.toContain('/products/fjord-ceramic-mug');
    // every product shown is a member of that collection
    const members = new Set(
      (
        await queryDb<{ handle: string }>(
          `select p.handle from collection_products cp join collections c on c.id = cp.collection_id join products p on p.id = cp.product_id where c.handle = ?`,
          [collection.handle],
        )
      ).map((r) => `/products/${r.handle}`),
    );
    for (const href of hrefs) expect(members.has(href!), href!).toBe(true);
    await expectAccessible(page, testInfo, `related-${locale}`);
    await links.first().click();
    await expect(page).toHaveURL(new RegExp(`${hrefs[0]}$`));
  });
}
