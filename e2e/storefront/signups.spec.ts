import type { Page } from '@playwright/test';
import { expect, expectAccessible, pageWithoutScripts, queryDb, shot, test, useLocale } from './helpers';

const unique = () => `shopper.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;

test.describe('signups', () => {
  test('newsletter in the footer needs its own consent, then is accepted', async ({ page, context }, testInfo) => {
    await useLocale(context);
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    const email = unique();
    await footer.getByLabel('E-mail address').fill(email);
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    // Without the box ticked nothing is sent, and the message sits at the checkbox.
    await expect(footer.getByText('Please tick the box to give your consent.')).toBeVisible();
    await expect(footer.getByLabel('E-mail address')).toHaveValue(email);
    expect(await queryDb('select 1 from newsletter_subscriptions where email = ?', [email])).toHaveLength(0);

    const consent = 'Yes, send me the newsletter by e-mail. I can unsubscribe at any time.';
    await footer.getByRole('checkbox', { name: consent }).check();
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await expect(
      footer.getByText('Almost done — we’re sending you an e-mail. Confirm your subscription with the link in it within 7 days.'),
    ).toBeVisible();
    await shot(page, testInfo, 'newsletter');

    const rows = await queryDb<{ status: string; text: string; purpose: string; source: string }>(
      `select n.status, c.text, c.purpose, n.source from newsletter_subscriptions n join consents c on c.id = n.consent_id where n.email = ?`,
      [email],
    );
    expect(rows).toEqual([{ status: 'pending_confirmation', text: consent, purpose: 'newsletter', source: 'footer' }]);
  });

  /** The footer's signup sent with an address that is none: refused at the field, what was typed kept. */
  async function refusedAddress(page: Page) {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await footer.getByLabel('E-mail address').fill('not-an-address');
    await footer.getByRole('checkbox').check();
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await expect(footer.getByText('Please enter a valid e-mail address.')).toBeVisible();
    await expect(footer.getByLabel('E-mail address')).toHaveAttribute('aria-invalid', 'true');
    await expect(footer.getByLabel('E-mail address')).toHaveValue('not-an-address');
    await expect(footer.getByRole('checkbox')).toBeChecked();
    return footer;
  }

  test('an invalid e-mail is shown at the field', async ({ page, context }) => {
    await useLocale(context);
    await refusedAddress(page);
  });

  test('without JavaScript, a refused signup comes back with what was typed, and a corrected one is accepted', async ({ browser }) => {
    const { context, page } = await pageWithoutScripts(browser);
    const footer = await refusedAddress(page);

    const email = unique();
    await footer.getByLabel('E-mail address').fill(email);
    await footer.getByRole('checkbox').uncheck();
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await expect(footer.getByText('Please tick the box to give your consent.')).toBeVisible();
    await expect(footer.getByLabel('E-mail address')).toHaveValue(email);
    await expect(footer.getByRole('checkbox')).not.toBeChecked();
    expect(await queryDb('select 1 from newsletter_subscriptions where email = ?', [email])).toHaveLength(0);

    await footer.getByRole('checkbox').check();
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    await expect(footer.getByText(/Almost done/)).toBeVisible();
    expect(await queryDb('select status from newsletter_subscriptions where email = ?', [email])).toEqual([
      { status: 'pending_confirmation' },
    ]);
    await context.close();
  });

  test('restock alert on a sold-out variant, with its own consent', async ({ page, context }, testInfo) => {
    await useLocale(context);
    await page.goto('/products/linen-tote-bag');
    await expect(page.getByRole('heading', { name: 'Get an e-mail when it’s back' })).toHaveCount(0);
    await page.getByRole('radio', { name: /Black/ }).check();
    await expect(page.getByTestId('availability')).toHaveText('Sold out');
    await expect(page.getByRole('button', { name: 'Add to cart' })).toHaveCount(0);

    const form = page.getByRole('region', { name: 'Get an e-mail when it’s back' });
    const email = unique();
    const consent =
      'Yes, e-mail me once when this product is back in stock. I can unsubscribe at any time. This is not a newsletter signup.';
    await form.getByLabel('E-mail address').fill(email);
    await form.getByRole('checkbox', { name: consent }).check();
    await shot(page, testInfo, 'restock-form');
    await expectAccessible(page, testInfo, 'product-sold-out');
    await form.getByRole('button', { name: 'Notify me' }).click();
    await expect(
      page.getByText(
        'Thanks! We’re sending you an e-mail: confirm with the link in it within 7 days, and we’ll e-mail you once when it’s back.',
      ),
    ).toBeVisible();

    const variant = new URL(page.url()).searchParams.get('variant');
    const rows = await queryDb<{ variant_id: string; status: string; text: string; purpose: string }>(
      `select s.variant_id, s.status, c.text, c.purpose from stock_subscriptions s join consents c on c.id = s.consent_id where s.email = ?`,
      [email],
    );
    expect(rows).toEqual([{ variant_id: variant, status: 'pending_confirmation', text: consent, purpose: 'stock_notification' }]);
    // The restock consent is not a newsletter signup.
    expect(await queryDb('select 1 from newsletter_subscriptions where email = ?', [email])).toHaveLength(0);
  });

  test('a product whose every variant is sold out offers only the alert', async ({ page, context }) => {
    await useLocale(context);
    await page.goto('/products/aurora-wool-throw');
    await expect(page.getByTestId('availability')).toHaveText('Sold out');
    await expect(page.getByRole('button', { name: 'Add to cart' })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Get an e-mail when it’s back' })).toBeVisible();
  });
});
