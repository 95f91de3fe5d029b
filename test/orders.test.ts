import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { inventoryLevels, orderLines, orders, outboxMessages, paymentEvents, products, productVariants, sites } from '@/db/schema';
import { authenticateCredential, createCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import {
  createCheckoutSession,
  deliveryOptions,
  getCheckoutSession,
  prepareCheckoutPayment,
  toCheckoutSession,
  updateCheckoutSession,
} from '@/lib/commerce/checkout';
import { orderByNumber, orderForSession, orderNumberPrefix, recordPaymentEvent, sandboxPaymentAction } from '@/lib/commerce/orders';
import { readAvailability } from '@/lib/commerce/availability';
import { CheckoutSession, UpdateCheckoutSessionBody } from '@/lib/contract/checkout';
import { drainOutbox } from '@/lib/mail/drain';
import { smtpMailer } from '@/lib/mail/transport';
import { freshDatabase } from './support/database';
import { header, part, testSmtp, type TestSmtp } from './support/smtp';

let database: Database;
let dbUrl: string;
let dbDir: string;
let demo: SiteContext;

async function variant(productHandle: string, title: string): Promise<string> {
  const rows = await database
    .select({ id: productVariants.id, title: productVariants.title })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(and(eq(products.siteId, demo.site.id), eq(products.handle, productHandle)))
    .orderBy(asc(productVariants.position));
  return rows.find((r) => r.title === title)!.id;
}

const stock = async (variantId: string) =>
  (await database.select({ q: inventoryLevels.quantity }).from(inventoryLevels).where(eq(inventoryLevels.variantId, variantId)))[0]!.q;
const setStock = (variantId: string, quantity: number) =>
  database.update(inventoryLevels).set({ quantity, policy: 'deny' }).where(eq(inventoryLevels.variantId, variantId));
const versions = async () =>
  (await database.select({ catalog: sites.catalogVersion, stock: sites.stockVersion }).from(sites).where(eq(sites.id, demo.site.id)))[0]!;

/** A session ready to pay and its sandbox payment: lines, address, delivery, prepare-payment. */
async function pending(lines: { variantId: string; quantity: number }[], email = 'kim@example.com') {
  const session = await createCheckoutSession(database, demo, { lines }, { ttlSeconds: 86_400 });
  const shippingAddress = UpdateCheckoutSessionBody.parse({
    shippingAddress: { firstName: 'Kim', lastName: 'Berg', line1: 'Main 1', postalCode: '11151', city: 'Stockholm', country: 'SE' },
  }).shippingAddress!;
  await updateCheckoutSession(database, demo.site, session.id, { email, shippingAddress }, {});
  await deliveryOptions(database, demo.site, session.id, { select: 'ship_se_standard' });
  return prepareCheckoutPayment(database, demo.site, session.id, {});
}

const pay = (p: Awaited<ReturnType<typeof pending>>) =>
  sandboxPaymentAction(database, { sessionId: p.session.id, clientToken: p.payment.clientToken, action: 'pay' });

beforeAll(async () => {
  ({ database, url: dbUrl, dir: dbDir } = await freshDatabase());
  demo = (await authenticateCredential(database, (await createCredential(database, { siteHandle: 'demo', scope: 'extended' })).token))!;
});

describe('order numbers', () => {
  it('are the initials of the shop, else of its handle', () => {
    expect(orderNumberPrefix('Nordlys Home & Goods', 'demo')).toBe('NHG');
    expect(orderNumberPrefix('Öland', 'oland-outlet')).toBe('OO');
    expect(orderNumberPrefix('', 'x')).toBe('X');
  });
});

describe('completing a paid session', () => {
  it('records the order as charged, takes the stock down, moves the session to completed and queues the receipt and notice', async () => {
    const mug = await variant('fjord-ceramic-mug', 'White');
    await setStock(mug, 48);
    const before = await versions();
    const p = await pending([{ variantId: mug, quantity: 2 }]);
    const result = await pay(p);
    expect(result).toMatchObject({ outcome: 'completed', order: { oversold: false } });
    expect(result!.order!.number).toMatch(/^NHG-1\d{4}$/);
    expect(await stock(mug)).toBe(46);
    expect((await versions()).stock).toBeGreaterThan(before.stock);

    const session = await getCheckoutSession(database, demo.site, p.session.id);
    expect(session.status).toBe('completed');
    const order = (await orderByNumber(database, demo.site.id, result!.order!.number))!;
    expect(order).toMatchObject({
      sessionId: session.id,
      provider: 'sandbox',
      paymentReference: p.payment.reference,
      total: session.total,
      tax: session.tax,
      currency: 'SEK',
      oversold: false,
    });
    expect(order.lines.map((l) => [l.variantId, l.quantity, l.unitPrice, l.oversoldQuantity])).toEqual([
      [mug, 2, session.lines[0]!.unitPrice, 0],
    ]);
    expect((await orderByNumber(database, demo.site.id, String(order.seq)))?.id).toBe(order.id);

    // The extended read names the order.
    const view = CheckoutSession.parse(toCheckoutSession(session, demo.site, await orderForSession(database, demo.site.id, session.id)));
    expect(view).toMatchObject({ status: 'completed', order: { number: order.number } });

    const queued = await database.select().from(outboxMessages).where(eq(outboxMessages.aggregateId, order.id));
    expect(queued.map((m) => m.topic).sort()).toEqual(['order.confirmation', 'order.merchant_notice']);
  });

  it('changes nothing twice: a repeated or late event is recorded as such', async () => {
    const mug = await variant('fjord-ceramic-mug', 'Midnight');
    await setStock(mug, 10);
    const p = await pending([{ variantId: mug, quantity: 1 }]);
    const first = await pay(p);
    expect(first?.outcome).toBe('completed');
    expect((await pay(p))?.outcome).toBe('duplicate');
    const late = await recordPaymentEvent(database, {
      provider: 'sandbox',
      eventId: 'evt_other',
      type: 'x',
      kind: 'succeeded',
      sessionId: p.session.id,
      reference: p.payment.reference,
    });
    expect(late.outcome).toBe('already_completed');
    expect(await stock(mug)).toBe(9);
    expect(await database.select().from(orders).where(eq(orders.sessionId, p.session.id))).toHaveLength(1);
  });

  it('records an event for an unknown session and changes nothing', async () => {
    const result = await recordPaymentEvent(database, {
      provider: 'stripe',
      eventId: 'evt_unknown_1',
      type: 'checkout.session.completed',
      kind: 'succeeded',
      sessionId: 'cs_doesnotexist123',
      reference: 'cs_test_1',
    });
    expect(result.outcome).toBe('unknown_session');
    const [row] = await database.select().from(paymentEvents).where(eq(paymentEvents.eventId, 'evt_unknown_1'));
    expect(row).toMatchObject({ outcome: 'unknown_session', sessionId: 'cs_doesnotexist123' });
  });

  it('reopens the session when the payment fails, and the shopper can pay again', async () => {
    const mug = await variant('fjord-ceramic-mug', 'White');
    const p = await pending([{ variantId: mug, quantity: 1 }]);
    const left = await stock(mug);
    const cancelled = await sandboxPaymentAction(database, {
      sessionId: p.session.id,
      clientToken: p.payment.clientToken,
      action: 'cancel',
    });
    expect(cancelled?.outcome).toBe('reopened');
    const reopened = await getCheckoutSession(database, demo.site, p.session.id);
    expect(reopened).toMatchObject({ status: 'open', payment: null });
    expect(await stock(mug)).toBe(left);
    // The old payment's token no longer completes anything.
    expect(await pay(p)).toBeNull();
    const again = await prepareCheckoutPayment(database, demo.site, p.session.id, {});
    expect(again.payment.reference).not.toBe(p.payment.reference);
    expect((await pay(again))?.outcome).toBe('completed');
  });

  it('sells the last unit once when two shoppers pay at the same time; the other order is kept and flagged oversold', async () => {
    const mug = await variant('fjord-ceramic-mug', 'Midnight');
    await setStock(mug, 1);
    const a = await pending([{ variantId: mug, quantity: 1 }], 'a@example.com');
    const b = await pending([{ variantId: mug, quantity: 1 }], 'b@example.com');
    const results = await Promise.all([pay(a), pay(b)]);
    expect(results.map((r) => r?.outcome)).toEqual(['completed', 'completed']);
    expect(results.map((r) => r!.order!.oversold).sort()).toEqual([false, true]);
    expect(await stock(mug)).toBe(0);
    // Availability reacts as to any stock change: the variant is sold out now.
    expect((await readAvailability(database, demo.site.id, [mug])).get(mug)).toBe('out_of_stock');
    const flagged = results.find((r) => r!.order!.oversold)!.order!;
    const order = (await orderByNumber(database, demo.site.id, flagged.number))!;
    expect(order.lines[0]).toMatchObject({ quantity: 1, oversoldQuantity: 1 });
    const lines = await database.select().from(orderLines).where(eq(orderLines.variantId, mug));
    expect(lines.length).toBeGreaterThanOrEqual(2);
  });
});

describe('receipts', () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await testSmtp();
    await smtp.start();
  });
  afterAll(() => smtp.stop());

  it("sends the shopper a receipt in the session's language and the merchant a notice, through a real SMTP server", async () => {
    const mug = await variant('fjord-ceramic-mug', 'White');
    await setStock(mug, 20);
    const p = await pending([{ variantId: mug, quantity: 2 }], 'receipt@example.com');
    const result = await pay(p);
    const number = result!.order!.number;
    const mailer = smtpMailer(smtp.url);
    try {
      // Drains every due message (earlier tests' too); what matters is this order's two.
      await drainOutbox({
        database,
        mailer,
        origin: 'https://shop.example',
        from: 'shop@nordlys.example',
        merchantEmail: 'owner@nordlys.example',
        log: () => {},
      });
    } finally {
      mailer.close();
    }
    const receipt = smtp.received.find((r) => r.rcptTo.includes('receipt@example.com'))!;
    expect(receipt).toBeDefined();
    expect(header(receipt.raw, 'Subject')).toContain(number);
    expect(header(receipt.raw, 'Content-Language')).toBe('sv');
    expect(header(receipt.raw, 'List-Unsubscribe')).toBeNull();
    const text = part(receipt.raw, 'text/plain')!;
    expect(text).toContain(`Ordernummer: ${number}`);
    expect(text).toMatch(/2 × Fjord keramikmugg/);
    expect(text).toMatch(/Varav moms: /);
    expect(text).toContain('Kim Berg');
    expect(text).toContain('https://shop.example/');
    // The shop's legal name and postal address (its settings), as commercial mail must carry.
    expect(text).toContain('Exempelgatan 1, 111 22 Stockholm, Sverige');
    const html = part(receipt.raw, 'text/html')!;
    expect(html).toMatch(/<img src="https:\/\/shop\.example\/[^"]+"/);

    const notice = smtp.received.find(
      (r) => r.rcptTo.includes('owner@nordlys.example') && (header(r.raw, 'Subject') ?? '').includes(number),
    )!;
    expect(notice).toBeDefined();
    expect(part(notice.raw, 'text/plain')).toContain('receipt@example.com');
    const rows = await database
      .select({ status: outboxMessages.status })
      .from(outboxMessages)
      .where(eq(outboxMessages.aggregateId, result!.order!.id));
    expect(rows.map((r) => r.status)).toEqual(['sent', 'sent']);
  });
});

describe('npm run orders', () => {
  const ROOT = new URL('..', import.meta.url).pathname;
  const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  const run = (args: string[]) => {
    const result = spawnSync(
      process.execPath,
      ['--conditions=react-server', '--import', TSX, join(ROOT, 'scripts', 'orders.ts'), ...args],
      {
        cwd: dbDir,
        encoding: 'utf8',
        env: {
          ...process.env,
          DATABASE_URL: dbUrl,
          TSX_TSCONFIG_PATH: join(ROOT, 'tsconfig.json'),
          SITE_API_CREDENTIAL: '',
          NODE_ENV: 'production',
        },
        timeout: 120_000,
      },
    );
    return { code: result.status, out: result.stdout, err: result.stderr };
  };

  it('lists, shows and exports the orders as CSV', { timeout: 240_000 }, async () => {
    const mug = await variant('fjord-ceramic-mug', 'White');
    await setStock(mug, 5);
    const paid = await pay(await pending([{ variantId: mug, quantity: 3 }], 'cli@example.com'));
    const number = paid!.order!.number;

    const list = run(['list', '--site', 'demo']);
    expect(list.code, list.err).toBe(0);
    expect(list.out.split('\n')[0]).toMatch(new RegExp(`^${number}\\s.*SEK\\s+sandbox`));

    const show = run(['show', number]);
    expect(show.code, show.err).toBe(0);
    expect(show.out).toContain(`Order ${number}`);
    expect(show.out).toContain('cli@example.com');
    expect(show.out).toMatch(/3 × Fjord keramikmugg/);
    expect(run(['show', 'NHG-1']).code).toBe(1);

    const csv = run(['export', '--format', 'csv', '--site', 'demo']);
    expect(csv.code, csv.err).toBe(0);
    const rows = csv.out.trim().split('\r\n');
    expect(rows[0]).toBe(
      'order_number,created_at,oversold,provider,payment_reference,email,market,currency,ship_to_country,line,sku,title,quantity,unit_price,line_total,oversold_quantity,subtotal,shipping,tax,total',
    );
    const line = rows.find((r) => r.startsWith(`${number},`))!.split(',');
    expect(line).toHaveLength(20);
    expect(line.slice(5, 13)).toEqual(['cli@example.com', 'se', 'SEK', 'SE', '1', line[10], 'Fjord keramikmugg — Vit', '3']);
    const order = (await orderByNumber(database, demo.site.id, number))!;
    expect(line[19]).toBe((order.total / 100).toFixed(2));
    expect(run(['export']).code).toBe(2);
  });
});
