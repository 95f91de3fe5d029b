// The mail path end to end with real parts: a real SMTP server (smtp-server), real SQLite
// files, nodemailer, the database triggers, and a second drainer in its own process.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, openConnection, openDatabase, type Connection, type Database } from '@/db';
import {
  consents,
  newsletterSubscriptions,
  notificationFlows,
  outboxMessages,
  products,
  productVariants,
  sites,
  stockSubscriptions,
  variantPrices,
} from '@/db/schema';
import { authenticateCredential, createCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import { DomainError } from '@/lib/platform/errors';
import { newId } from '@/lib/platform/ids';
import {
  confirmSubscription,
  subscribeToNewsletter,
  subscribeToStockNotifications,
  unsubscribeByToken,
  CONFIRM_TOKEN_TTL_MS,
} from '@/lib/commerce/signups';
import { claimDueMessages, requeueFailedMessages } from '@/lib/commerce/signups/outbox';
import { drainOutbox, messageIdFor, type DrainOptions } from '@/lib/mail/drain';
import { emlMailer, smtpMailer, type Mailer } from '@/lib/mail/transport';
import { renderMail } from '@/lib/mail/render';
import type { OutgoingMessage } from '@/lib/commerce/signups/messages';
import { header, links, part, testSmtp, waitFor, type TestSmtp } from './support/smtp';
import { freshDatabase } from './support/database';

const ORIGIN = 'https://shop.example.test';
const FROM = 'shop@nordlys.example';
const consent = { granted: true as const, text: 'Mail me once when this is back in stock.', version: '2026-01' };
const newsletterConsent = { granted: true as const, text: 'Send me the newsletter.', version: '2026-01' };

let url: string;
let database: Database;
let raw: Connection;
let demo: SiteContext;
let smtp: TestSmtp;
const mailers: Mailer[] = [];
let counter = 0;
const address = (tag: string) => `${tag}.${++counter}.${Date.now()}@example.se`;

beforeAll(async () => {
  ({ database, url } = await freshDatabase());
  demo = (await authenticateCredential(database, (await createCredential(database, { siteHandle: 'demo', scope: 'core' })).token))!;
  // Another connection, as sqlite3 or an import job would be: changes made here are not ours.
  raw = openConnection(url);
  smtp = await testSmtp();
  await smtp.start();
});

afterAll(async () => {
  for (const m of mailers) m.close();
  await smtp.stop();
  raw.close();
});

afterEach(() => {
  smtp.received.length = 0;
});

function mailer(smtpUrl = smtp.url): Mailer {
  const m = smtpMailer(smtpUrl);
  mailers.push(m);
  return m;
}

function drain(extra: Partial<DrainOptions> = {}) {
  return drainOutbox({ database, mailer: mailer(), origin: ORIGIN, from: FROM, log: () => {}, ...extra });
}

const mailsTo = (email: string) => smtp.received.filter((r) => r.rcptTo.includes(email));
/** Where a link in a mail leads: /visit?…&to=<path> goes on to <path> (in the subscriber's market and language). */
const target = (link: string) => {
  const url = new URL(link);
  return url.pathname === '/visit' ? new URL(url.searchParams.get('to')!, url.origin).href : link;
};
const tokenOf = (link: string) => new URL(target(link)).searchParams.get('token')!;
/** The token of the first link in `text` that leads to `path`. */
const tokenTo = (text: string, path: string) => tokenOf(links(text).find((l) => new URL(target(l)).pathname === path)!);

async function variantOf(productHandle: string, position = 1) {
  const [row] = await database
    .select({ id: productVariants.id, productId: products.id })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(and(eq(products.siteId, demo.site.id), eq(products.handle, productHandle), eq(productVariants.position, position)));
  return row!;
}

/** Signs up and confirms through the mail, as a shopper would. */
async function activeStockSubscriber(variantId: string, email: string, locale = 'en-SE', market?: string) {
  await subscribeToStockNotifications(database, demo, { variantId, email, consent, locale, market });
  await drain();
  const mail = mailsTo(email).at(-1)!;
  const state = await confirmSubscription(database, demo.site.id, tokenTo(part(mail.raw, 'text/plain')!, '/subscriptions/confirm'));
  expect(state.status).toBe('active');
}

describe('double opt-in', () => {
  it('sends the confirmation mail (multipart, localised, List-Unsubscribe) and its link confirms', async () => {
    const email = address('news');
    await subscribeToNewsletter(database, demo, { email, consent: newsletterConsent, locale: 'sv-SE', market: 'se' });
    const [before] = await database.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, email));
    expect(before!.status).toBe('pending_confirmation');

    expect(await drain()).toMatchObject({ sent: 1, retried: 0, failed: 0 });
    const [mail] = mailsTo(email);
    expect(mail).toBeDefined();
    expect(mailsTo(email)).toHaveLength(1);
    expect(header(mail!.raw, 'Content-Type')).toMatch(/^multipart\/alternative/);
    expect(header(mail!.raw, 'Subject')).toBe('Bekräfta din prenumeration på nyhetsbrevet från Nordlys Home & Goods');
    expect(header(mail!.raw, 'From')).toContain(FROM);
    expect(header(mail!.raw, 'Message-ID')).toMatch(/^<outbox\.\d+\.[^@]+@nordlys\.example>$/);
    expect(header(mail!.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const listUnsubscribe = header(mail!.raw, 'List-Unsubscribe')!;
    expect(listUnsubscribe).toMatch(new RegExp(`^<${ORIGIN}/subscriptions/one-click\\?token=[A-Za-z0-9_-]{43}>$`));

    const text = part(mail!.raw, 'text/plain')!;
    const html = part(mail!.raw, 'text/html')!;
    // Swedish, as the subscriber signed up in sv-SE.
    expect(text).toContain('Bekräfta');
    expect(html).toContain('lang="sv-SE"');
    // No tracking: no images, no remote content; every link goes to the shop, with a token only.
    expect(html).not.toMatch(/<img|url\(|<script/i);
    for (const link of [...links(text), ...links(html)]) {
      expect(link.startsWith(`${ORIGIN}/`)).toBe(true);
      expect(link).not.toContain(encodeURIComponent(email));
      expect(link).not.toContain(email);
    }
    const confirm = links(text).find((l) => target(l).startsWith(`${ORIGIN}/subscriptions/confirm?token=`))!;
    const unsubscribe = links(text).find((l) => target(l).startsWith(`${ORIGIN}/subscriptions/unsubscribe?token=`))!;
    expect(confirm).toBeDefined();
    expect(unsubscribe).toBeDefined();
    // Opened in the subscriber's market and language.
    expect(new URL(confirm).searchParams.get('locale')).toBe('sv-SE');
    expect(html).toContain(confirm.replace(/&/g, '&amp;'));

    // Only hashes are stored: the token from the mail appears nowhere in the database.
    const dump = JSON.stringify((await raw.execute('SELECT * FROM subscription_tokens')).rows);
    expect(dump).not.toContain(tokenOf(confirm));

    expect(await confirmSubscription(database, demo.site.id, tokenOf(confirm))).toEqual({
      kind: 'newsletter',
      status: 'active',
      changed: true,
    });
    // Twice is harmless: the same state, nothing changed.
    expect(await confirmSubscription(database, demo.site.id, tokenOf(confirm))).toEqual({
      kind: 'newsletter',
      status: 'active',
      changed: false,
    });
    const [after] = await database.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, email));
    expect(after!.status).toBe('active');
    const [record] = await database.select().from(consents).where(eq(consents.id, after!.consentId));
    expect(record!.confirmedAt).toEqual(expect.any(Number));
    // The message is marked sent, not deleted.
    const [row] = await database.select().from(outboxMessages).where(eq(outboxMessages.aggregateId, after!.id));
    expect(row).toMatchObject({ status: 'sent', attempts: 1, dispatchedAt: expect.any(Number) });
  });

  it('a token does one thing, for one Site, and a confirmation link expires', async () => {
    const email = address('purpose');
    const now = Date.now();
    await subscribeToNewsletter(database, demo, { email, consent: newsletterConsent }, now);
    await drain({ now: () => now });
    const text = part(mailsTo(email)[0]!.raw, 'text/plain')!;
    const confirm = tokenTo(text, '/subscriptions/confirm');
    const unsubscribe = tokenTo(text, '/subscriptions/unsubscribe');

    const code = async (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: unknown) => (e instanceof DomainError ? e.code : String(e)),
      );
    expect(await code(confirmSubscription(database, demo.site.id, unsubscribe))).toBe('unknown_token');
    expect(await code(unsubscribeByToken(database, demo.site.id, confirm, 'page'))).toBe('unknown_token');
    expect(await code(confirmSubscription(database, demo.site.id, 'x'.repeat(43)))).toBe('unknown_token');
    const [outlet] = await database.select({ id: sites.id }).from(sites).where(eq(sites.handle, 'outlet'));
    expect(await code(confirmSubscription(database, outlet!.id, confirm))).toBe('unknown_token');
    expect(await code(confirmSubscription(database, demo.site.id, confirm, now + CONFIRM_TOKEN_TTL_MS + 1))).toBe('token_expired');
    const [sub] = await database.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, email));
    expect(sub!.status).toBe('pending_confirmation');
    expect(await code(confirmSubscription(database, demo.site.id, confirm, now + CONFIRM_TOKEN_TTL_MS - 1000))).toBe('ok');
  });
});

describe('unsubscribe', () => {
  it('the one-click token unsubscribes and the withdrawal is recorded on the consent', async () => {
    const email = address('leave');
    await subscribeToNewsletter(database, demo, { email, consent: newsletterConsent });
    await drain();
    const mail = mailsTo(email)[0]!;
    const oneClick = header(mail.raw, 'List-Unsubscribe')!.slice(1, -1);
    const text = part(mail.raw, 'text/plain')!;
    await confirmSubscription(database, demo.site.id, tokenTo(text, '/subscriptions/confirm'));

    const at = Date.now();
    expect(await unsubscribeByToken(database, demo.site.id, tokenOf(oneClick), 'one_click', at)).toEqual({
      kind: 'newsletter',
      status: 'unsubscribed',
      changed: true,
    });
    expect(await unsubscribeByToken(database, demo.site.id, tokenOf(oneClick), 'page', at + 5)).toEqual({
      kind: 'newsletter',
      status: 'unsubscribed',
      changed: false,
    });
    const [sub] = await database.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, email));
    expect(sub!.status).toBe('unsubscribed');
    const [record] = await database.select().from(consents).where(eq(consents.id, sub!.consentId));
    // Evidence both ways: when it was given and confirmed, and when and how it was withdrawn.
    expect(record).toMatchObject({ confirmedAt: expect.any(Number), withdrawnAt: at, withdrawnVia: 'one_click' });
    // Confirming an unsubscribed address does not bring it back.
    expect((await confirmSubscription(database, demo.site.id, tokenTo(text, '/subscriptions/confirm'))).status).toBe('unsubscribed');
  });
});

describe('back in stock', () => {
  it('an UPDATE straight in the database mails every active subscription once, pending ones nothing', async () => {
    const variant = await variantOf('aurora-wool-throw');
    const [activeEn, activeSv, pending] = [address('en'), address('sv'), address('pending')];
    await activeStockSubscriber(variant.id, activeEn, 'en-SE');
    await activeStockSubscriber(variant.id, activeSv, 'sv-SE');
    await subscribeToStockNotifications(database, demo, { variantId: variant.id, email: pending, consent });
    await drain();
    smtp.received.length = 0;

    await raw.execute({ sql: 'UPDATE inventory_levels SET quantity = 7 WHERE variant_id = ?', args: [variant.id] });
    // Sold out and back again: the subscriptions were told already, they get nothing more.
    await raw.execute({ sql: 'UPDATE inventory_levels SET quantity = 0 WHERE variant_id = ?', args: [variant.id] });
    await raw.execute({ sql: 'UPDATE inventory_levels SET quantity = 3 WHERE variant_id = ?', args: [variant.id] });

    expect(await drain()).toMatchObject({ sent: 2, failed: 0 });
    expect(mailsTo(activeEn)).toHaveLength(1);
    expect(mailsTo(activeSv)).toHaveLength(1);
    expect(mailsTo(pending)).toHaveLength(0);
    expect(smtp.received).toHaveLength(2);

    const en = mailsTo(activeEn)[0]!;
    expect(header(en.raw, 'Subject')).toContain('Aurora Wool Throw');
    const sv = part(mailsTo(activeSv)[0]!.raw, 'text/plain')!;
    expect(sv).toContain('Aurora ullpläd');
    // the variant named in the subscriber's language too (stored as "Grey" or "Ochre")
    expect(sv).toMatch(/Grå|Ockra/);
    expect(part(en.raw, 'text/plain')).toMatch(/Grey|Ochre/);
    const productLink = new URL(links(sv).find((l) => l.includes('/visit?'))!);
    expect(productLink.origin).toBe(ORIGIN);
    expect(Object.fromEntries(productLink.searchParams)).toEqual({
      market: 'se',
      locale: 'sv-SE',
      to: `/products/aurora-wool-throw?variant=${variant.id}`,
    });
    expect(header(en.raw, 'List-Unsubscribe')).toMatch(/one-click\?token=/);

    const subs = await database
      .select()
      .from(stockSubscriptions)
      .where(inArray(stockSubscriptions.email, [activeEn, activeSv, pending]));
    expect(Object.fromEntries(subs.map((s) => [s.email, s.status]))).toEqual({
      [activeEn]: 'notified',
      [activeSv]: 'notified',
      [pending]: 'pending_confirmation',
    });
  });

  it('shows the product’s picture, its variant and its price in the subscriber’s market', async () => {
    const variant = await variantOf('fjord-ceramic-mug', 2);
    const who = { se: address('price-se'), de: address('price-de'), us: address('price-us') };
    await raw.execute({ sql: 'UPDATE inventory_levels SET quantity = 0 WHERE variant_id = ?', args: [variant.id] });
    await activeStockSubscriber(variant.id, who.se, 'sv-SE', 'se');
    await activeStockSubscriber(variant.id, who.de, 'de-DE', 'de');
    await activeStockSubscriber(variant.id, who.us, 'en-US', 'us');
    smtp.received.length = 0;
    await raw.execute({ sql: 'UPDATE inventory_levels SET quantity = 5 WHERE variant_id = ?', args: [variant.id] });
    expect(await drain()).toMatchObject({ sent: 3, failed: 0 });

    const prices = Object.fromEntries(
      (await database.select().from(variantPrices).where(eq(variantPrices.variantId, variant.id))).map((p) => [p.marketId, p.amount]),
    );
    // minor units to the decimal string Intl is given, by string arithmetic
    const decimal = (minor: number) => `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
    const shown = (minor: number, locale: string, currency: string) =>
      new Intl.NumberFormat(locale, { style: 'currency', currency }).format(decimal(minor) as `${number}`);
    const cases = [
      { email: who.se, locale: 'sv-SE', price: shown(prices.se!, 'sv-SE', 'SEK'), currency: /kr/, variant: /Sand|Vit|Grå|Blå|Grön|Svart/ },
      {
        email: who.de,
        locale: 'de-DE',
        price: shown(prices.de!, 'de-DE', 'EUR'),
        currency: /€/,
        variant: /Sand|Weiß|Grau|Blau|Grün|Schwarz/,
      },
      {
        email: who.us,
        locale: 'en-US',
        price: shown(prices.us!, 'en-US', 'USD'),
        currency: /\$/,
        variant: /Sand|White|Grey|Blue|Green|Black/,
      },
    ];
    for (const c of cases) {
      const mail = mailsTo(c.email)[0]!.raw;
      const text = part(mail, 'text/plain')!;
      const html = part(mail, 'text/html')!;
      expect(c.price, c.locale).toMatch(c.currency);
      expect(text, c.locale).toContain(c.price);
      expect(html, c.locale).toContain(c.price.replace(/&/g, '&amp;'));
      // the variant on a line of its own, in the subscriber's language
      const lines = text.split('\n');
      const title = lines.findIndex((l) => l === lines.find((x) => /Fjord/.test(x) && !/[.:]/.test(x)));
      expect(lines[title + 1], c.locale).toMatch(c.variant);
      expect(lines[title + 2], c.locale).toBe(c.price);
      // the product's picture: the shop's own file, at one address for everyone, linked to the product
      const img = /<a href="([^"]+)"><img src="([^"]+)" alt="([^"]*)" width="120" height="120"/.exec(html);
      expect(img, c.locale).not.toBeNull();
      expect(img![2]).toMatch(new RegExp(`^${ORIGIN}/products/[a-z-]+\\.svg$`));
      expect(img![3]).toMatch(/Fjord/);
      expect(target(img![1]!.replace(/&amp;/g, '&'))).toBe(`${ORIGIN}/products/fjord-ceramic-mug?variant=${variant.id}`);
    }
    // One picture for all three: nothing in its address says who opened the mail.
    const pictures = new Set(Object.values(who).map((e) => /<img src="([^"]+)"/.exec(part(mailsTo(e)[0]!.raw, 'text/html')!)![1]));
    expect(pictures.size).toBe(1);
  });

  it('publishing a product with stock counts too, and so does a first stock level', async () => {
    const vase = await variantOf('skog-ceramic-vase');
    const email = address('publish');
    await raw.execute({ sql: 'UPDATE inventory_levels SET quantity = 0 WHERE variant_id = ?', args: [vase.id] });
    await activeStockSubscriber(vase.id, email);
    // Restocked while unpublished: nobody can buy it yet, so nobody is told yet.
    await raw.execute({ sql: "UPDATE products SET status = 'draft' WHERE id = ?", args: [vase.productId] });
    await raw.execute({ sql: 'UPDATE inventory_levels SET quantity = 9 WHERE variant_id = ?', args: [vase.id] });
    expect((await database.select().from(stockSubscriptions).where(eq(stockSubscriptions.email, email)))[0]!.status).toBe('active');
    await raw.execute({ sql: "UPDATE products SET status = 'published' WHERE id = ?", args: [vase.productId] });
    expect((await database.select().from(stockSubscriptions).where(eq(stockSubscriptions.email, email)))[0]!.status).toBe('notified');
    await drain();
    expect(mailsTo(email).map((m) => header(m.raw, 'Subject'))).toEqual([
      expect.stringContaining('Confirm'),
      expect.stringContaining('back in stock'),
    ]);

    // A variant without any stock level gets its first one.
    const ochre = await variantOf('aurora-wool-throw', 2);
    const fresh = address('first-level');
    await raw.execute({ sql: 'DELETE FROM inventory_levels WHERE variant_id = ?', args: [ochre.id] });
    await activeStockSubscriber(ochre.id, fresh);
    await raw.execute({
      sql: "INSERT INTO inventory_levels (variant_id, quantity, low_stock_threshold, policy, updated_at) VALUES (?, 0, 5, 'preorder', 0)",
      args: [ochre.id],
    });
    await drain();
    expect(mailsTo(fresh).map((m) => header(m.raw, 'Subject'))).toEqual([
      expect.stringContaining('Confirm'),
      expect.stringContaining('back in stock'),
    ]);
  });

  it('a subscription confirmed after its variant came back is told at once', async () => {
    const vase = await variantOf('skog-ceramic-vase', 2);
    const email = address('late');
    await subscribeToStockNotifications(database, demo, { variantId: vase.id, email, consent, locale: 'en-SE' });
    await drain();
    const confirm = tokenTo(part(mailsTo(email)[0]!.raw, 'text/plain')!, '/subscriptions/confirm');
    expect(await confirmSubscription(database, demo.site.id, confirm)).toEqual({ kind: 'stock', status: 'notified', changed: true });
    await drain();
    expect(mailsTo(email).map((m) => header(m.raw, 'Subject'))).toEqual([
      expect.stringContaining('Confirm'),
      expect.stringContaining('back in stock'),
    ]);
  });

  it('a flow on another channel is kept for its own sender, not mailed', async () => {
    const variant = await variantOf('skog-ceramic-vase', 3);
    await raw.execute({ sql: 'UPDATE inventory_levels SET quantity = 0 WHERE variant_id = ?', args: [variant.id] });
    const [sms] = await database
      .select()
      .from(notificationFlows)
      .where(and(eq(notificationFlows.siteId, demo.site.id), eq(notificationFlows.channel, 'sms')));
    const [record] = await database.select({ id: consents.id }).from(consents).limit(1);
    const id = newId('sub');
    await database.insert(stockSubscriptions).values({
      id,
      siteId: demo.site.id,
      variantId: variant.id,
      flowId: sms!.id,
      email: address('sms'),
      status: 'active',
      consentId: record!.id,
      locale: 'sv-SE',
      marketId: 'se',
      createdAt: Date.now(),
    });
    await raw.execute({ sql: 'UPDATE inventory_levels SET quantity = 2 WHERE variant_id = ?', args: [variant.id] });
    expect(await drain()).toMatchObject({ sent: 0 });
    const rows = await database.select().from(outboxMessages).where(eq(outboxMessages.aggregateId, id));
    expect(rows).toEqual([
      expect.objectContaining({ channel: 'sms', status: 'pending', attempts: 0, topic: 'stock_subscription.back_in_stock' }),
    ]);
    expect(rows[0]!.payload).toMatchObject({ flow: { handle: 'sms-legacy', channel: 'sms' } });
  });
});

describe('delivery', () => {
  it('retries with backoff while the SMTP server is down and delivers once it is back; nothing lost', async () => {
    const relay = await testSmtp();
    const email = address('down');
    await subscribeToNewsletter(database, demo, { email, consent: newsletterConsent });
    let now = Date.now();
    const options = { mailer: mailer(relay.url), now: () => now, retry: { maxAttempts: 5, baseDelayMs: 60_000, maxDelayMs: 3_600_000 } };

    expect(await drain(options)).toMatchObject({ sent: 0, retried: 1 });
    const rowFor = async () =>
      (await database.select().from(outboxMessages).orderBy(asc(outboxMessages.id))).find((m) => m.payload.email === email)!;
    let row = await rowFor();
    expect(row).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: now + 60_000, leaseUntil: null });
    expect(row.lastError).toMatch(/ECONNREFUSED|connect/i);

    // Not due yet: a pass leaves it alone.
    now += 30_000;
    expect(await drain(options)).toMatchObject({ sent: 0, retried: 0 });
    now += 30_000;
    expect(await drain(options)).toMatchObject({ retried: 1 });
    row = await rowFor();
    // The delay doubles.
    expect(row).toMatchObject({ attempts: 2, nextAttemptAt: now + 120_000 });

    await relay.start();
    now += 120_000;
    expect(await drain(options)).toMatchObject({ sent: 1 });
    expect(relay.received.filter((r) => r.rcptTo.includes(email))).toHaveLength(1);
    expect(await rowFor()).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
    await relay.stop();
  });

  it('parks a message that keeps failing with its last error, and `retry` queues it again', async () => {
    const relay = await testSmtp();
    const email = address('parked');
    await subscribeToNewsletter(database, demo, { email, consent: newsletterConsent });
    let now = Date.now();
    const options = { mailer: mailer(relay.url), now: () => now, retry: { maxAttempts: 2, baseDelayMs: 1000, maxDelayMs: 1000 } };
    await drain(options);
    now += 1000;
    expect(await drain(options)).toMatchObject({ failed: 1 });
    const find = async () => (await database.select().from(outboxMessages)).find((m) => m.payload.email === email)!;
    expect(await find()).toMatchObject({ status: 'failed', attempts: 2, lastError: expect.stringMatching(/ECONNREFUSED|connect/i) });
    now += 3_600_000;
    expect(await drain(options)).toMatchObject({ sent: 0, failed: 0, retried: 0 });

    await relay.start();
    expect(await requeueFailedMessages(database, now, [(await find()).id])).toBe(1);
    expect(await drain(options)).toMatchObject({ sent: 1 });
    expect(relay.received.filter((r) => r.rcptTo.includes(email))).toHaveLength(1);
    await relay.stop();
  });

  it('a drainer that dies holding messages loses them when its lease ends; the resend has the same Message-ID', async () => {
    const email = address('crash');
    await subscribeToNewsletter(database, demo, { email, consent: newsletterConsent });
    const now = Date.now();
    // A drainer claims everything due and dies before sending or marking anything.
    const held = await claimDueMessages(database, { drainer: 'crashed', now, leaseMs: 60_000, limit: 100 });
    const mine = held.find((m) => m.payload.email === email)!;
    expect(mine).toMatchObject({ claimedBy: 'crashed', leaseUntil: now + 60_000 });

    expect(await drain({ now: () => now + 30_000 })).toMatchObject({ sent: 0 });
    expect(mailsTo(email)).toHaveLength(0);
    await drain({ now: () => now + 60_000 });
    const mails = mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(header(mails[0]!.raw, 'Message-ID')).toBe(messageIdFor(mine, FROM));
  });

  it('logs a failure without the address a relay quotes', async () => {
    const email = address('quoted');
    await subscribeToNewsletter(database, demo, { email, consent: newsletterConsent });
    const lines: string[] = [];
    const quoting: Mailer = {
      kind: 'smtp',
      deliver: async (mail) => {
        throw new Error(`550 5.1.1 <${mail.to}>: Recipient address rejected`);
      },
      close: () => {},
    };
    await drainOutbox({ database, mailer: quoting, origin: ORIGIN, from: FROM, log: (l) => lines.push(l) });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(email);
    expect(lines.join('\n')).toContain('<address>');
    // The row keeps the whole error for the operator.
    const row = (await database.select().from(outboxMessages)).find((m) => m.payload.email === email)!;
    expect(row.lastError).toContain(email);
  });

  it('two drainers at once — another client and another process on the same file — send each message once', async () => {
    const slow = await testSmtp({ delayMs: 15 });
    await slow.start();
    const emails = Array.from({ length: 40 }, () => address('race'));
    const before = Number((await raw.execute('SELECT coalesce(max(id), 0) AS n FROM outbox_messages')).rows[0]!.n);
    for (const email of emails) await subscribeToNewsletter(database, demo, { email, consent: newsletterConsent });

    const second = openDatabase({ url });
    const child = spawn(
      process.execPath,
      [join('node_modules', 'tsx', 'dist', 'cli.mjs'), '--conditions=react-server', 'scripts/outbox.ts', 'drain'],
      {
        cwd: process.cwd(),
        env: { ...process.env, DATABASE_URL: url, SMTP_URL: slow.url, MAIL_FROM: FROM, STOREFRONT_ORIGIN: ORIGIN, NODE_ENV: 'test' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let childOutput = '';
    child.stdout.on('data', (d: Buffer) => (childOutput += d.toString()));
    child.stderr.on('data', (d: Buffer) => (childOutput += d.toString()));
    const childDone = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

    // Start the in-process drainers once the other process has begun claiming.
    await waitFor(
      async () => {
        // Ours have not started: any of these rows claimed is the other process's doing.
        const claimed = await raw.execute({
          sql: 'SELECT count(*) AS n FROM outbox_messages WHERE id > ? AND claimed_by IS NOT NULL',
          args: [before],
        });
        return Number(claimed.rows[0]!.n) > 0;
      },
      'the other process to start draining',
      30_000,
    );
    const ours = await Promise.all([
      drainOutbox({ database, mailer: mailer(slow.url), origin: ORIGIN, from: FROM, log: () => {}, batchSize: 2 }),
      drainOutbox({ database: second, mailer: mailer(slow.url), origin: ORIGIN, from: FROM, log: () => {}, batchSize: 2 }),
    ]);
    expect(await childDone, childOutput).toBe(0);
    closeDatabase(second);

    const received = slow.received.filter((r) => emails.some((e) => r.rcptTo.includes(e)));
    expect(received).toHaveLength(emails.length);
    const ids = received.map((r) => header(r.raw, 'Message-ID'));
    expect(new Set(ids).size).toBe(emails.length);
    expect(new Set(received.flatMap((r) => r.rcptTo)).size).toBe(emails.length);
    // All three took part (the work was really shared), and every row is sent.
    expect(ours[0].sent + ours[1].sent).toBeLessThan(emails.length);
    const rows = (await database.select().from(outboxMessages)).filter((m) => emails.includes(m.payload.email as string));
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    await slow.stop();
  });

  it('without SMTP, writes each message as an .eml file and logs where', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'sd-eml-'));
    const lines: string[] = [];
    const email = address('eml');
    await subscribeToNewsletter(database, demo, { email, consent: newsletterConsent, locale: 'de-DE', market: 'de' });
    const eml = emlMailer(folder, (line) => lines.push(line));
    const result = await drainOutbox({ database, mailer: eml, origin: ORIGIN, from: FROM, log: () => {} });
    expect(result.sent).toBeGreaterThanOrEqual(1);
    const files = readdirSync(folder).filter((f) => f.endsWith('.eml'));
    const mine = files.map((f) => readFileSync(join(folder, f), 'utf8')).find((text) => text.includes(email))!;
    expect(mine).toBeDefined();
    expect(header(mine, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(part(mine, 'text/plain')).toContain('Bestätigen');
    expect(lines.some((l) => l.includes(folder) && l.endsWith('.eml'))).toBe(true);
    expect(lines).toHaveLength(files.length);
  });
});

describe('the words of every mail', () => {
  const message = (template: OutgoingMessage['template'], locale: string): OutgoingMessage => ({
    outboxId: 1,
    siteId: 'site',
    shopName: 'Nordlys Home & Goods',
    to: 'a@example.se',
    locale,
    template,
    flowHandle: 'back-in-stock-email',
    sender: {
      legalName: 'Nordlys Home & Goods AB',
      postalAddress: { lines: ['Storgatan 1'], postalCode: '111 22', city: 'Stockholm', country: 'SE' },
    },
    product: {
      title: 'Fjord Ceramic Mug',
      variantTitle: 'Sand',
      price: { amount: '129.00', currency: 'SEK' },
      image: { url: `${ORIGIN}/products/mug-sand.svg`, alt: 'Fjord Ceramic Mug in sand', width: 800, height: 800 },
    },
    links: {
      shop: `${ORIGIN}/visit?to=%2F`,
      confirm: `${ORIGIN}/subscriptions/confirm?token=x`,
      product: `${ORIGIN}/products/fjord-ceramic-mug`,
      unsubscribe: `${ORIGIN}/subscriptions/unsubscribe?token=y`,
      oneClickUnsubscribe: `${ORIGIN}/subscriptions/one-click?token=y`,
    },
  });
  /**
   * The words a reader sees, per sentence: a line, a paragraph or a sentence's end separates
   * them; an inline link or a colon does not ("Avsluta: <a>Avsluta prenumerationen</a>").
   */
  const sentences = (body: string) =>
    body
      .replace(/<\/(p|td|title)>|<br\s*\/?>/gi, '\n')
      .replace(/<[^>]+>/g, ' ')
      .replace(/https?:\/\/\S+/g, ' ')
      .replace(/&[a-z#0-9]+;/gi, ' ')
      .toLowerCase()
      .split(/[\n.!?]/)
      .map((sentence) => sentence.match(/[\p{L}\p{N}-]+/gu) ?? []);

  it('never says a word twice in a row (“Avsluta: Avsluta prenumerationen”), in any language', () => {
    for (const locale of ['en-SE', 'sv-SE', 'de-DE']) {
      for (const template of ['newsletter_confirmation', 'stock_confirmation', 'back_in_stock'] as const) {
        const mail = renderMail(message(template, locale));
        for (const [name, body] of [
          ['text', mail.text],
          ['html', mail.html],
        ] as const) {
          const repeats = sentences(body).flatMap((list) => list.filter((w, i) => i > 0 && w === list[i - 1]));
          expect(repeats, `${locale} ${template} ${name}`).toEqual([]);
        }
        // the unsubscribe link is named once, by its own words
        expect(mail.text.split('\n').filter((l) => l.includes('/subscriptions/unsubscribe'))).toHaveLength(1);
      }
    }
    expect(renderMail(message('back_in_stock', 'sv-SE')).text).toContain(
      'Vill du inte ha de här mejlen? Avsluta prenumerationen: https://',
    );
    expect(renderMail(message('back_in_stock', 'de-DE')).text).toContain('Sie möchten diese E-Mails nicht mehr? Abmelden: https://');
    expect(renderMail(message('back_in_stock', 'en-SE')).text).toContain('Don’t want these e-mails? Unsubscribe: https://');
  });

  it('shows a price in the subscriber’s locale, and leaves out what the product does not have', () => {
    const full = renderMail(message('back_in_stock', 'de-DE'));
    expect(full.text).toMatch(/Fjord Ceramic Mug\nSand\n129,00\sSEK\n/);
    const bare = message('back_in_stock', 'en-SE');
    bare.product = { title: 'Linen Tote Bag', variantTitle: null, price: null, image: null };
    const mail = renderMail(bare);
    expect(mail.html).not.toMatch(/<img/);
    expect(mail.text).toContain('Linen Tote Bag\n\n');
    // confirmations carry no picture
    expect(renderMail(message('stock_confirmation', 'en-SE')).html).not.toMatch(/<img/);
  });
});
