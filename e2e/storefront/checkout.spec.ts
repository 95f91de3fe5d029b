import type { Page } from '@playwright/test';
import {
  currentVariantId,
  deliverHomeAndPay,
  expect,
  expectAccessible,
  fillAddress,
  openProduct,
  pageWithoutScripts,
  payOnDemoPage,
  queryDb,
  shot,
  test,
  useLocale,
} from './helpers';

async function addToCart(page: Page, handle: string, option: string | RegExp) {
  await openProduct(page, `/products/${handle}`);
  await page.getByRole('radio', { name: option }).check();
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByText('Added to your cart.')).toBeVisible();
  return await currentVariantId(page);
}

async function sessionsWith(variantId: string): Promise<string[]> {
  const rows = await queryDb<{ session_id: string }>('select distinct session_id from checkout_session_lines where variant_id = ?', [
    variantId,
  ]);
  return rows.map((r) => r.session_id);
}

test.describe('checkout', () => {
  // Whole flows through several server round trips; generous on a busy 2-core machine.
  test.describe.configure({ timeout: 90_000 });

  test('through the merchant checkout to the confirmation', async ({ page, context }, testInfo) => {
    await useLocale(context);
    const variant = await addToCart(page, 'linen-tote-bag', 'Natural');
    await page.goto('/cart');
    await page.getByRole('button', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/checkout\/cs_[A-Za-z0-9]+$/);
    const sessionId = page.url().split('/').pop()!;
    await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
    // The demo Site's hosted checkout is this page: no link to it.
    await expect(page.getByRole('link', { name: 'Open the hosted checkout' })).toHaveCount(0);
    const total = page.getByTestId('checkout-total');
    await expect(total).toContainText('kr');

    const form = page.getByRole('region', { name: /Shipping address/ });
    await form.getByLabel('E-mail address').fill('kim@example.com');
    await form.getByLabel('First name').fill('Kim');
    await form.getByLabel('Last name').fill('Svensson');
    const street = page.getByRole('combobox', { name: 'Street address' });
    await street.fill('Drottn');
    const suggestions = page.getByRole('listbox', { name: 'Address suggestions' });
    await expect(suggestions.getByRole('option').first()).toBeVisible();
    await street.press('ArrowDown');
    await expect(suggestions.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
    await street.press('Enter');
    await expect(street).toHaveValue(/^Drottninggatan/);
    await expect(page.getByLabel('Postal code')).not.toHaveValue('');
    await expect(page.getByLabel('City')).not.toHaveValue('');
    await shot(page, testInfo, 'checkout-address');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(page.getByText('Saved.')).toBeVisible();

    const delivery = page.getByRole('region', { name: 'Delivery' });
    await expect(delivery.getByRole('group', { name: 'Home delivery' })).toBeVisible();
    await expect(delivery.getByRole('group', { name: 'Pickup point' })).toBeVisible();
    // each option says how long it takes (the Site's settings: Standard in Sweden, 3–5 days)
    await expect(delivery.getByRole('group', { name: 'Home delivery' }).getByText('PostNord · 3–5 business days')).toBeVisible();
    const before = await total.textContent();
    await delivery.getByRole('group', { name: 'Pickup point' }).getByRole('radio').first().check();
    await delivery.getByRole('button', { name: 'Use this delivery option' }).click();
    await expect(total).not.toHaveText(before!);
    await expect(page.getByRole('complementary', { name: 'Order summary' }).getByText('Chosen in the next step')).toHaveCount(0);
    await expectAccessible(page, testInfo, 'checkout');
    await shot(page, testInfo, 'checkout');

    const [stockBefore] = await queryDb<{ quantity: number }>('select quantity from inventory_levels where variant_id = ?', [variant]);
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    // The sandbox's demo payment page: it says what it is, and nothing is paid yet.
    await expect(page).toHaveURL(new RegExp(`/checkout/${sessionId}/pay$`));
    const [pending] = await queryDb<{ status: string }>('select status from checkout_sessions where id = ?', [sessionId]);
    expect(pending?.status).toBe('payment_pending');
    // The cart is done once payment starts.
    await expect(page.getByRole('link', { name: 'Cart 0', exact: true })).toBeVisible();
    await shot(page, testInfo, 'demo-payment');
    await payOnDemoPage(page);
    await expect(page).toHaveURL(new RegExp(`/checkout/${sessionId}/confirmation\\?demo=1$`));
    await expect(page.getByTestId('demo-payment')).toContainText('no money was moved');
    const number = page.getByTestId('order-number');
    await expect(number).toHaveText(/^NHG-\d{5}$/);
    // No provider internals for the shopper.
    await expect(page.getByRole('main')).not.toContainText(/sandbox|pay_sandbox|cs_/);
    await expect(page.getByRole('complementary', { name: 'Order summary' })).toContainText('Linen Tote Bag');
    await shot(page, testInfo, 'confirmation');
    const [row] = await queryDb<{ status: string }>('select status from checkout_sessions where id = ?', [sessionId]);
    expect(row?.status).toBe('completed');
    const [order] = await queryDb<{ number: string; total: number }>('select number, total from orders where session_id = ?', [sessionId]);
    await expect(number).toHaveText(order!.number);
    const [stockAfter] = await queryDb<{ quantity: number }>('select quantity from inventory_levels where variant_id = ?', [variant]);
    // At least this order's unit (other tests may buy the same bag meanwhile; nobody restocks it).
    expect(stockAfter!.quantity).toBeLessThanOrEqual(stockBefore!.quantity - 1);
    const lines = await queryDb<{ variant_id: string; quantity: number }>(
      'select l.variant_id, l.quantity from order_lines l join orders o on o.id = l.order_id where o.session_id = ?',
      [sessionId],
    );
    expect(lines).toEqual([{ variant_id: variant, quantity: 1 }]);
    // The confirmation survives a reload; going back to the checkout of a paid session lands on it.
    const shown = await number.textContent();
    await page.reload();
    await expect(page.getByTestId('order-number')).toHaveText(shown!);
    await page.goto(`/checkout/${sessionId}`);
    await expect(page).toHaveURL(/\/confirmation$/);
    await expect(page.getByTestId('order-number')).toHaveText(shown!);
  });

  test('without JavaScript: a bundle and an item into the cart, the whole cart shown, and on through delivery to the confirmation', async ({
    browser,
  }) => {
    // Nothing may wait behind a loading placeholder: without scripts it is never replaced.
    const { context, page } = await pageWithoutScripts(browser);
    await page.goto('/products/linen-tote-bag');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await page.goto('/products/morning-coffee-set');
    const offers = page
      .getByRole('region', { name: 'Bundle offer' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('button', { name: 'Add bundle to cart' }) });
    const title = ((await offers.first().getByRole('heading', { level: 3 }).textContent()) ?? '').split(' · ')[0]!.trim();
    await offers.first().getByRole('button', { name: 'Add bundle to cart' }).click();
    await expect(page).toHaveURL(/\/cart(\?.*)?$/);
    const cart = page.getByRole('list', { name: 'Your cart' });
    await expect(cart.getByRole('heading', { name: 'Linen Tote Bag' })).toBeVisible();
    // The bundle is in the cart unless the seed's stock has sold it out (the cart says so then).
    const bundleShown = cart.getByRole('heading', { name: title });
    if ((await page.getByRole('alert').count()) === 0) await expect(bundleShown).toBeVisible();
    await expect(page.getByText('Loading…')).toHaveCount(0);
    await expect(page.getByRole('complementary', { name: 'Order summary' }).locator('.subtotal')).toContainText(/Subtotal.*kr/);

    await page.getByRole('button', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/checkout\/cs_[A-Za-z0-9]+$/);
    const sessionId = page.url().split('/').pop()!;
    await fillAddress(page, { lastName: 'Svensson', line1: 'Storgatan 1', postalCode: '111 22', city: 'Stockholm' });
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(page.getByText('Loading…')).toHaveCount(0);
    await deliverHomeAndPay(page);
    await expect(page).toHaveURL(new RegExp(`/checkout/${sessionId}/confirmation\\?demo=1$`));
    await expect(page.getByTestId('order-number')).toHaveText(/^NHG-\d{5}$/);
    await context.close();
  });

  test('without JavaScript, a refused address comes back as typed, with the problem at its field', async ({ browser }) => {
    const { context, page } = await pageWithoutScripts(browser);
    await page.goto('/products/linen-tote-bag');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page).toHaveURL(/\/cart$/);
    await page.getByRole('button', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/checkout\/cs_[A-Za-z0-9]+$/);
    await fillAddress(page, { lastName: 'Svensson', line1: 'Storgatan 1', postalCode: 'ABC', city: 'Umeå' });
    await page.getByLabel('Phone').fill('+46 70 123 45 67');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(page.getByText('This is not a postal code of the chosen country.')).toBeVisible();
    await expect(page.getByLabel('Postal code')).toHaveAttribute('aria-invalid', 'true');
    const form = page.getByRole('region', { name: /Shipping address/ });
    await expect(form.getByLabel('E-mail address')).toHaveValue('kim@example.com');
    await expect(page.getByLabel('Phone')).toHaveValue('+46 70 123 45 67');
    await expect(form.getByLabel('First name')).toHaveValue('Kim');
    await expect(form.getByLabel('Last name')).toHaveValue('Svensson');
    await expect(page.getByRole('combobox', { name: 'Street address' })).toHaveValue('Storgatan 1');
    await expect(page.getByLabel('Postal code')).toHaveValue('ABC');
    await expect(page.getByLabel('City')).toHaveValue('Umeå');

    // Corrected, it saves, and the page shows what the session now holds.
    await page.getByLabel('Postal code').fill('111 22');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(page.getByText('This is not a postal code of the chosen country.')).toHaveCount(0);
    await expect(page.getByLabel('Postal code')).toHaveValue('111 22');
    await expect(page.getByLabel('City')).toHaveValue('Umeå');
    await context.close();
  });

  test('an invalid address is shown at its field; a country change re-prices the session', async ({ page, context }, testInfo) => {
    await useLocale(context);
    await addToCart(page, 'fjord-ceramic-mug', 'White');
    await page.goto('/cart');
    await page.getByRole('button', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/checkout\/cs_/);
    // Hydrated first: a submit before the scripts run is the no-JavaScript form post (a full
    // page load, tested above), and the check below is about the scripted form.
    await page.waitForLoadState('networkidle');

    await fillAddress(page, { lastName: 'Svensson', line1: 'Storgatan 1', postalCode: 'ABC', city: 'Umeå' });
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(page.getByText('Please check the highlighted fields.')).toBeVisible();
    await expect(page.getByLabel('Postal code')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('This is not a postal code of the chosen country.')).toBeVisible();
    // What the shopper typed is still there.
    await expect(page.getByLabel('City')).toHaveValue('Umeå');
    await shot(page, testInfo, 'checkout-invalid');

    const total = page.getByTestId('checkout-total');
    await expect(total).toContainText('kr');
    await page.getByLabel('Country', { exact: true }).selectOption('DE');
    // In English as written in Germany now (en-DE): the shop followed the session there.
    await expect(page.getByText(/Prices updated for Germany: the total was SEK\s[0-9.]+, now €[0-9.]+/)).toBeVisible();
    await expect(total).toContainText('€');
    // What the last save said no longer applies: the fields are judged again at the next save.
    await expect(page.getByText('This is not a postal code of the chosen country.')).toHaveCount(0);
    await expect(page.getByText('Please check the highlighted fields.')).toHaveCount(0);
    await expect(page.getByLabel('Postal code')).not.toHaveAttribute('aria-invalid', 'true');
  });

  test("what the API refuses is told at its field in the shopper's language, never in the API's words", async ({ page, context }) => {
    await useLocale(context);
    await addToCart(page, 'fjord-ceramic-mug', 'White');
    await useLocale(context, 'se', 'sv-SE');
    await page.goto('/cart');
    await page.getByRole('button', { name: 'Till kassan' }).click();
    await expect(page).toHaveURL(/\/checkout\/cs_/);
    await page.waitForLoadState('networkidle');
    const form = page.getByRole('region', { name: /Leveransadress/ });
    await form.getByLabel('E-postadress').fill('kim@');
    await form.getByLabel('Postnummer').fill('ABC');
    await page.getByRole('button', { name: 'Spara och fortsätt' }).click();
    await expect(page.getByText('Kontrollera de markerade fälten.')).toBeVisible();
    await expect(page.getByText('Ange en giltig e-postadress, till exempel namn@exempel.se.')).toBeVisible();
    await expect(page.getByText('Fyll i fältet.').first()).toBeVisible();
    await expect(form.getByLabel('Efternamn')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('main')).not.toContainText(/Too small|expected string|Not a valid/);
  });

  test('a US address asks for its state, and the confirmation writes it the American way', async ({ page, context }) => {
    await useLocale(context);
    await addToCart(page, 'fjord-ceramic-mug', 'White');
    await page.goto('/cart');
    await page.getByRole('button', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/checkout\/cs_/);
    const sessionId = page.url().split('/').pop()!;
    await page.waitForLoadState('networkidle');
    await expect(page.getByLabel('State')).toHaveCount(0);
    await page.getByLabel('Country', { exact: true }).selectOption('US');
    await expect(page.getByText(/Prices updated for United States/)).toBeVisible();
    await fillAddress(page, { lastName: 'Berg', line1: '350 Fifth Avenue', postalCode: '10118', city: 'New York' });
    // Without the state the API refuses the address, at that field.
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(page.getByLabel('State')).toHaveAttribute('aria-invalid', 'true');
    await page.getByLabel('State').fill('ny');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(page.getByText('Saved.')).toBeVisible();
    const [row] = await queryDb<{ address: string }>('select shipping_address as address from checkout_sessions where id = ?', [sessionId]);
    expect(JSON.parse(row!.address)).toMatchObject({ region: 'NY', country: 'US', postalCode: '10118' });
    await deliverHomeAndPay(page);
    await expect(page.getByText('New York, NY 10118')).toBeVisible();
  });

  test('double-clicking Checkout makes exactly one session', async ({ page, context }) => {
    await useLocale(context);
    // A product no other test checks out, so the count below is this test's alone.
    const variant = await addToCart(page, 'birch-cutting-board', 'Small');
    await page.goto('/cart');
    const before = await sessionsWith(variant);

    await page.getByRole('button', { name: 'Checkout' }).dblclick();
    await expect(page).toHaveURL(/\/checkout\/cs_[A-Za-z0-9]+$/);
    const landed = page.url().split('/').pop()!;
    const after = await sessionsWith(variant);
    expect(after.filter((id) => !before.includes(id))).toEqual([landed]);

    // A submit after the first one's answer (a slow double click: the cart has a new nonce by
    // then) lands on the same session, and starts no other.
    const origin = new URL(page.url()).origin;
    const submit = () => page.request.post('/shop-api/checkout', { headers: { Origin: origin }, maxRedirects: 0, form: {} });
    const again = await submit();
    expect(again.status()).toBe(303);
    expect(again.headers().location).toBe(`/checkout/${landed}`);
    expect(await sessionsWith(variant)).toEqual(after);

    // Later (the few seconds it is remembered are over), two simultaneous submits of the cart
    // (same cookies) answer one new session.
    await context.clearCookies({ name: 'checkout_recent' });
    const [a, b] = await Promise.all([submit(), submit()]);
    expect([a.status(), b.status()]).toEqual([303, 303]);
    expect(a.headers().location).toMatch(/^\/checkout\/cs_/);
    expect(a.headers().location).not.toBe(`/checkout/${landed}`);
    expect(b.headers().location).toBe(a.headers().location);
    const final = await sessionsWith(variant);
    expect(final.filter((id) => !after.includes(id))).toHaveLength(1);
  });

  test('sold out between adding and checking out: a clear message, no crash', async ({ page, context }, testInfo) => {
    await useLocale(context);
    const natural = await addToCart(page, 'linen-tote-bag', 'Natural');
    await page.goto('/products/linen-tote-bag');
    await page.getByRole('radio', { name: /Black/ }).check();
    const black = await currentVariantId(page);
    // The shopper put Black in the cart while it was in stock; it has sold out since.
    const cart = (await context.cookies()).find((c) => c.name === 'cart')!;
    await context.addCookies([{ ...cart, value: `${cart.value}.${black}~1` }]);

    await page.goto('/cart');
    await expect(page.getByText('Linen Tote Bag — Black is sold out. Remove it to continue.')).toBeVisible();
    await page.getByRole('button', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/cart\?problem=insufficient_stock/);
    await expect(page.getByRole('alert').filter({ hasText: 'sold out' })).toHaveText(
      'Some items sold out since you added them. Remove them to continue to checkout.',
    );
    expect(new URL(page.url()).searchParams.get('lines')).toBe(black);
    await shot(page, testInfo, 'cart-sold-out');

    await page.getByRole('button', { name: 'Remove Linen Tote Bag — Black from cart' }).click();
    await expect(page.getByRole('button', { name: 'Remove Linen Tote Bag — Black from cart' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Checkout' }).click();
    await expect(page).toHaveURL(/\/checkout\/cs_/);
    await expect(page.getByRole('complementary', { name: 'Order summary' })).toContainText('Linen Tote Bag');
    expect(natural).not.toBe(black);
  });

  test('the checkout endpoint refuses other sites', async ({ request }) => {
    const res = await request.post('/shop-api/checkout', { headers: { Origin: 'https://evil.example' }, maxRedirects: 0, form: {} });
    expect(res.status()).toBe(403);
  });
});
