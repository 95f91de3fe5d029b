import { createHash } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { execute, openDatabase, overNetwork, type Database } from '@/db';
import {
  consents,
  newsletterSubscriptions,
  outboxMessages,
  products,
  productVariants,
  rateLimitCounters,
  sites,
  stockSubscriptions,
} from '@/db/schema';
import { authenticateCredential, createCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import { DomainError } from '@/lib/platform/errors';
import { mailboxOf, requireConsent, subscribeToNewsletter, subscribeToStockNotifications } from '@/lib/commerce/signups';
import { purgeRateLimitWindows } from '@/lib/platform/rate-limit/store';
import { NewsletterSubscriptionRequest, StockSubscriptionRequest } from '@/lib/contract/signups';
import { freshDatabase } from './support/database';

let database: Database;
let demo: SiteContext;
let outlet: SiteContext;
const variantOf = async (siteHandle: string, productHandle: string) => {
  const [row] = await database
    .select({ id: productVariants.id })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .innerJoin(sites, eq(sites.id, products.siteId))
    .where(and(eq(sites.handle, siteHandle), eq(products.handle, productHandle)))
    .orderBy(asc(productVariants.position))
    .limit(1);
  return row!.id;
};
const consent = { granted: true as const, text: 'Mail me once when this is back in stock. Unsubscribe any time.', version: '2026-01' };
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

beforeAll(async () => {
  ({ database } = await freshDatabase());
  const context = async (siteHandle: string) =>
    (await authenticateCredential(database, (await createCredential(database, { siteHandle, scope: 'core' })).token))!;
  demo = await context('demo');
  outlet = await context('outlet');
});

async function rowsFor(email: string) {
  return {
    consents: await database.select().from(consents).where(eq(consents.email, email)).orderBy(asc(consents.createdAt)),
    stock: await database.select().from(stockSubscriptions).where(eq(stockSubscriptions.email, email)),
    newsletter: await database.select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, email)),
    outbox: (await database.select().from(outboxMessages).orderBy(asc(outboxMessages.id))).filter((m) => m.payload.email === email),
  };
}

describe('stock subscription', () => {
  it('keeps the consent, a pending subscription and exactly one outbox message, in one go', async () => {
    const variantId = await variantOf('demo', 'aurora-wool-throw');
    const now = Date.UTC(2026, 10, 21, 10, 0, 0);
    const outcome = await subscribeToStockNotifications(
      database,
      demo,
      { variantId, email: 'anna@example.se', consent, locale: 'en-SE' },
      now,
    );
    expect(outcome.created).toBe(true);

    const rows = await rowsFor('anna@example.se');
    expect(rows.consents).toEqual([
      {
        id: expect.stringMatching(/^cons_/),
        siteId: demo.site.id,
        purpose: 'stock_notification',
        email: 'anna@example.se',
        text: consent.text,
        textVersion: '2026-01',
        textHash: sha256(consent.text),
        locale: 'en-SE',
        source: 'stock-subscriptions',
        credentialId: demo.credentialId,
        createdAt: now,
        confirmedAt: null,
        withdrawnAt: null,
        withdrawnVia: null,
      },
    ]);
    expect(rows.stock).toEqual([
      {
        id: expect.stringMatching(/^sub_/),
        siteId: demo.site.id,
        variantId,
        flowId: expect.any(String),
        email: 'anna@example.se',
        status: 'pending_confirmation',
        consentId: rows.consents[0]!.id,
        locale: 'en-SE',
        marketId: 'se',
        createdAt: now,
      },
    ]);
    expect(rows.outbox).toHaveLength(1);
    expect(rows.outbox[0]).toMatchObject({
      siteId: demo.site.id,
      topic: 'stock_subscription.confirmation_requested',
      aggregateId: rows.stock[0]!.id,
      createdAt: now,
      dispatchedAt: null,
      attempts: 0,
      payload: {
        subscriptionId: rows.stock[0]!.id,
        email: 'anna@example.se',
        locale: 'en-SE',
        marketId: 'se',
        variantId,
        productHandle: 'aurora-wool-throw',
        flow: { handle: 'back-in-stock-email', channel: 'email' },
        consentId: rows.consents[0]!.id,
      },
    });
    // A stock consent is not a newsletter signup.
    expect(rows.newsletter).toEqual([]);
  });

  it('a repeat keeps a new consent record but makes no second subscription and no second message', async () => {
    const variantId = await variantOf('demo', 'aurora-wool-throw');
    const input = { variantId, email: 'bertil@example.se', consent };
    expect((await subscribeToStockNotifications(database, demo, input)).created).toBe(true);
    const again = await subscribeToStockNotifications(database, demo, { ...input, consent: { ...consent, version: '2026-02' } });
    expect(again.created).toBe(false);
    const rows = await rowsFor('bertil@example.se');
    expect(rows.consents.map((c) => c.textVersion)).toEqual(['2026-01', '2026-02']);
    expect(rows.stock).toHaveLength(1);
    expect(rows.outbox).toHaveLength(1);
    expect(rows.stock[0]!.consentId).toBe(rows.consents[0]!.id);
  });

  it('a subscription per variant and flow: another variant is another subscription', async () => {
    const email = 'cecilia@example.se';
    await subscribeToStockNotifications(database, demo, { variantId: await variantOf('demo', 'aurora-wool-throw'), email, consent });
    await subscribeToStockNotifications(database, demo, { variantId: await variantOf('demo', 'linen-tote-bag'), email, consent });
    const rows = await rowsFor(email);
    expect(rows.stock).toHaveLength(2);
    expect(rows.outbox).toHaveLength(2);
  });

  it('16 signups of one address at once make one subscription and one message', async () => {
    const variantId = await variantOf('demo', 'fjord-ceramic-mug');
    // A second client is a second set of connections, like a second instance.
    const other = openDatabase({ url: !overNetwork(database) ? await dbUrl() : '' });
    const outcomes = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        subscribeToStockNotifications(i % 2 ? other : database, demo, { variantId, email: 'dora@example.se', consent }),
      ),
    );
    expect(outcomes.filter((o) => o.created)).toHaveLength(1);
    const rows = await rowsFor('dora@example.se');
    expect(rows.stock).toHaveLength(1);
    expect(rows.outbox).toHaveLength(1);
    expect(rows.consents).toHaveLength(16);
  });

  it('arms again a subscription that was notified or unsubscribed, with a fresh confirmation', async () => {
    const variantId = await variantOf('demo', 'aurora-wool-throw');
    const input = { variantId, email: 'erik@example.se', consent };
    await subscribeToStockNotifications(database, demo, input);
    await database.update(stockSubscriptions).set({ status: 'notified' }).where(eq(stockSubscriptions.email, 'erik@example.se'));
    expect((await subscribeToStockNotifications(database, demo, input)).created).toBe(true);
    const rows = await rowsFor('erik@example.se');
    expect(rows.stock).toHaveLength(1);
    expect(rows.stock[0]!.status).toBe('pending_confirmation');
    expect(rows.stock[0]!.consentId).toBe(rows.consents[1]!.id);
    expect(rows.outbox).toHaveLength(2);
  });

  it.each([
    ['an unknown flow', { flow: 'no-such-flow' }],
    ['a disabled flow', { flow: 'sms-legacy' }],
  ])('refuses %s with unknown_flow and writes nothing', async (_, extra) => {
    const variantId = await variantOf('demo', 'aurora-wool-throw');
    await expect(
      subscribeToStockNotifications(database, demo, { variantId, email: 'frida@example.se', consent, ...extra }),
    ).rejects.toMatchObject({ code: 'unknown_flow', options: { errors: [{ pointer: '/flow' }] } });
    expect(await rowsFor('frida@example.se')).toEqual({ consents: [], stock: [], newsletter: [], outbox: [] });
  });

  it('takes a named enabled flow', async () => {
    const variantId = await variantOf('demo', 'aurora-wool-throw');
    const outcome = await subscribeToStockNotifications(database, demo, {
      variantId,
      email: 'gustav@example.se',
      consent,
      flow: 'back-in-stock-email',
    });
    expect(outcome.created).toBe(true);
  });

  it.each([
    ['an unknown variant', async () => 'var_doesnotexist'],
    ["a draft product's variant", () => variantOf('demo', 'draft-winter-parka')],
    ["another Site's variant", () => variantOf('outlet', 'linen-tote-bag')],
  ])('answers not_found for %s', async (_, variant) => {
    const variantId = await variant();
    await expect(subscribeToStockNotifications(database, demo, { variantId, email: 'hugo@example.se', consent })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect((await rowsFor('hugo@example.se')).consents).toEqual([]);
  });

  it('lets the outlet sign up for its own variant', async () => {
    const outcome = await subscribeToStockNotifications(database, outlet, {
      variantId: await variantOf('outlet', 'linen-tote-bag'),
      email: 'ines@example.se',
      consent,
    });
    expect(outcome.created).toBe(true);
    expect((await rowsFor('ines@example.se')).stock[0]!.siteId).toBe(outlet.site.id);
  });

  it('validates market and locale against the Site, pointing into the body', async () => {
    const variantId = await variantOf('demo', 'aurora-wool-throw');
    await expect(
      subscribeToStockNotifications(database, demo, { variantId, email: 'j@example.se', consent, market: 'xx' }),
    ).rejects.toMatchObject({ code: 'unknown_market', options: { errors: [{ pointer: '/market' }] } });
    await expect(
      subscribeToStockNotifications(database, demo, { variantId, email: 'j@example.se', consent, market: 'de', locale: 'sv-SE' }),
    ).rejects.toMatchObject({ code: 'unsupported_locale', options: { errors: [{ pointer: '/locale' }] } });
    const ok = await subscribeToStockNotifications(database, demo, { variantId, email: 'j@example.se', consent, market: 'de' });
    expect(ok.created).toBe(true);
    expect((await rowsFor('j@example.se')).stock[0]).toMatchObject({ marketId: 'de', locale: 'de-DE' });
  });

  it('writes the consent, the subscription and the message in one transaction: all or nothing', async () => {
    const variantId = await variantOf('demo', 'aurora-wool-throw');
    await execute(
      database,
      "CREATE TRIGGER fail_outbox BEFORE INSERT ON outbox_messages WHEN json_extract(NEW.payload, '$.email') = 'karin@example.se' BEGIN SELECT RAISE(ABORT, 'outbox down'); END",
    );
    try {
      await expect(subscribeToStockNotifications(database, demo, { variantId, email: 'karin@example.se', consent })).rejects.toThrow();
      expect(await rowsFor('karin@example.se')).toEqual({ consents: [], stock: [], newsletter: [], outbox: [] });
    } finally {
      await execute(database, 'DROP TRIGGER fail_outbox');
    }
  });
});

describe('newsletter subscription', () => {
  it('is its own consent and subscription, never taken from a stock signup', async () => {
    const email = 'lena@example.se';
    // Fixed times, stock first: the test must not depend on the wall clock.
    const now = Date.UTC(2026, 10, 21, 12, 0, 0);
    await subscribeToStockNotifications(
      database,
      demo,
      { variantId: await variantOf('demo', 'aurora-wool-throw'), email, consent },
      now - 60_000,
    );
    const newsletterConsent = { granted: true as const, text: 'Send me the newsletter.', version: 'nl-3' };
    expect((await subscribeToNewsletter(database, demo, { email, consent: newsletterConsent, source: 'footer' }, now)).created).toBe(true);

    const rows = await rowsFor(email);
    expect(rows.consents.map((c) => c.purpose)).toEqual(['stock_notification', 'newsletter']);
    const nl = rows.consents[1]!;
    expect(nl).toMatchObject({
      purpose: 'newsletter',
      text: 'Send me the newsletter.',
      textVersion: 'nl-3',
      textHash: sha256('Send me the newsletter.'),
      locale: 'sv-SE',
      source: 'footer',
      credentialId: demo.credentialId,
      createdAt: now,
    });
    expect(rows.newsletter).toEqual([
      {
        id: expect.stringMatching(/^nls_/),
        siteId: demo.site.id,
        email,
        status: 'pending_confirmation',
        consentId: nl.id,
        locale: 'sv-SE',
        marketId: 'se',
        source: 'footer',
        createdAt: now,
      },
    ]);
    expect(rows.outbox.map((m) => m.topic)).toEqual([
      'stock_subscription.confirmation_requested',
      'newsletter_subscription.confirmation_requested',
    ]);
    expect(rows.outbox[1]!.payload).toMatchObject({
      subscriptionId: rows.newsletter[0]!.id,
      email,
      locale: 'sv-SE',
      source: 'footer',
      consentId: nl.id,
    });
  });

  it('a repeat records the consent again, and nothing else', async () => {
    const email = 'mats@example.se';
    await subscribeToNewsletter(database, demo, { email, consent });
    expect((await subscribeToNewsletter(database, demo, { email, consent })).created).toBe(false);
    const rows = await rowsFor(email);
    expect(rows.consents).toHaveLength(2);
    expect(rows.newsletter).toHaveLength(1);
    expect(rows.outbox).toHaveLength(1);
    expect(rows.stock).toEqual([]);
    expect(rows.consents[0]!.source).toBe('newsletter-subscriptions');
  });

  it('is per Site: the same address on another Site is another subscription', async () => {
    const email = 'nora@example.se';
    await subscribeToNewsletter(database, demo, { email, consent });
    await subscribeToNewsletter(database, outlet, { email, consent });
    expect((await rowsFor(email)).newsletter.map((r) => r.siteId).sort()).toEqual([demo.site.id, outlet.site.id].sort());
  });
});

describe('confirmation mail budgets', () => {
  const day = Date.UTC(2026, 10, 23, 9, 0, 0);
  const queuedTo = async (pattern: RegExp) =>
    (await database.select().from(outboxMessages)).filter((m) => pattern.test(String(m.payload.email))).map((m) => String(m.payload.email));

  it('folds a mailbox: lowercased, the local part cut at its first +, dots kept', () => {
    expect(mailboxOf('Anna+News@Example.SE')).toBe('anna@example.se');
    expect(mailboxOf('anna+a+b@example.se')).toBe('anna@example.se');
    expect(mailboxOf('a.n.n.a@gmail.com')).toBe('a.n.n.a@gmail.com');
    expect(mailboxOf('+x@example.se')).toBe('+x@example.se');
  });

  it('sends at most 3 confirmations a day to one mailbox, plus-addresses and case folded; the rest store nothing', async () => {
    const outcomes = [];
    for (let i = 0; i < 8; i++) {
      const email = `bomb+${i}@example.se`;
      outcomes.push(await subscribeToNewsletter(database, demo, { email, consent }, day + i * 1000));
    }
    expect(outcomes.map((o) => o.created)).toEqual([true, true, true, false, false, false, false, false]);
    expect(outcomes.slice(3).every((o) => 'held' in o && o.held)).toBe(true);
    expect(await queuedTo(/^bomb\+/)).toEqual(['bomb+0@example.se', 'bomb+1@example.se', 'bomb+2@example.se']);
    // A held signup leaves no consent and no subscription behind.
    expect(await rowsFor('bomb+5@example.se')).toMatchObject({ consents: [], newsletter: [], outbox: [] });
    // The plain address is the same mailbox.
    expect((await subscribeToNewsletter(database, demo, { email: 'bomb@example.se', consent }, day + 9000)).created).toBe(false);
    // The next day it has a budget again.
    expect((await subscribeToNewsletter(database, demo, { email: 'bomb+9@example.se', consent }, day + 86_400_000)).created).toBe(true);
  });

  it('caps one exact address across variants, and a repeat of a known address costs nothing', async () => {
    const variants = (
      await database
        .select({ id: productVariants.id })
        .from(productVariants)
        .innerJoin(products, eq(products.id, productVariants.productId))
        .where(and(eq(productVariants.siteId, demo.site.id), eq(products.status, 'published')))
    )
      .map((v) => v.id)
      .slice(0, 6);
    expect(variants.length).toBeGreaterThanOrEqual(5);
    const email = 'variants@example.se';
    await subscribeToStockNotifications(database, demo, { variantId: variants[0]!, email, consent }, day);
    // Repeats of a pending subscription queue no mail, so they cost no budget.
    for (let i = 0; i < 5; i++) await subscribeToStockNotifications(database, demo, { variantId: variants[0]!, email, consent }, day);
    const created = [];
    for (const variantId of variants.slice(1))
      created.push((await subscribeToStockNotifications(database, demo, { variantId, email, consent }, day)).created);
    expect(created.filter(Boolean)).toHaveLength(2);
    expect((await rowsFor(email)).outbox).toHaveLength(3);
  });

  it('caps one shopper across mailboxes; another shopper, or the same mailbox elsewhere, is not held up', async () => {
    const budget = { shopper: '198.51.100.7', perShopper: 4 };
    const created = [];
    for (let i = 0; i < 7; i++)
      created.push((await subscribeToNewsletter(database, demo, { email: `shopper${i}@example.se`, consent }, day, budget)).created);
    expect(created).toEqual([true, true, true, true, false, false, false]);
    expect(
      (await subscribeToNewsletter(database, demo, { email: 'shopper5@example.se', consent }, day, { ...budget, shopper: '198.51.100.8' }))
        .created,
    ).toBe(true);
    // A held signup cost the mailbox nothing: shopper6 still has all three.
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await subscribeToNewsletter(database, demo, { email: `shopper6+${i}@example.se`, consent }, day, {
            shopper: `198.51.100.${20 + i}`,
          })
        ).created,
      ).toBe(true);
    }
  });

  it("keeps its counts through the rate limiter's sweep, and stores neither an address nor a shopper's IP", async () => {
    const later = day + 3 * 3600_000;
    for (let i = 0; i < 3; i++)
      await subscribeToNewsletter(database, demo, { email: `swept+${i}@example.se`, consent }, later, { shopper: '203.0.113.99' });
    await purgeRateLimitWindows(database, { now: later + 120_000, windowSeconds: 60 });
    expect((await subscribeToNewsletter(database, demo, { email: 'swept+x@example.se', consent }, later + 120_000)).created).toBe(false);
    const counters = JSON.stringify(await database.select().from(rateLimitCounters));
    expect(counters).not.toMatch(/swept|example\.se|203\.0\.113/);
    // Once the day is over the sweep takes them.
    await purgeRateLimitWindows(database, { now: day + 2 * 86_400_000, windowSeconds: 60 });
    const ofThoseDays = (await database.select().from(rateLimitCounters)).filter(
      (r) => r.bucket.startsWith('mail:') && r.windowStart <= day + 2 * 86_400_000,
    );
    expect(ofThoseDays).toEqual([]);
  });
});

describe('signup bodies', () => {
  it('normalise the address before it is stored or compared', () => {
    const body = StockSubscriptionRequest.parse({ variantId: 'var_x', email: '  Olle.Berg@Example.SE ', consent });
    expect(body.email).toBe('olle.berg@example.se');
    expect(NewsletterSubscriptionRequest.parse({ email: 'a@Müller.de', consent }).email).toBe('a@xn--mller-kva.de');
  });

  it.each([
    '',
    'plain',
    'a@b',
    'a@@b.se',
    'é@x.se',
    `${'a'.repeat(65)}@x.se`,
    `a@${'b'.repeat(250)}.se`,
    'a@x.se\u0000',
    "x'; DROP TABLE consents;--@x.se",
  ])('refuse %j as an e-mail address', (email) => {
    const parsed = NewsletterSubscriptionRequest.safeParse({ email, consent });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.path).toEqual(['email']);
  });

  it('refuse unknown fields, at any level', () => {
    expect(NewsletterSubscriptionRequest.safeParse({ email: 'a@x.se', consent, admin: true }).success).toBe(false);
    expect(NewsletterSubscriptionRequest.safeParse({ email: 'a@x.se', consent: { ...consent, extra: 1 } }).success).toBe(false);
    expect(StockSubscriptionRequest.safeParse({ variantId: 'v', email: 'a@x.se', consent, source: 'footer' }).success).toBe(false);
  });

  it.each([
    ['missing', { email: 'a@x.se' }, '/consent'],
    ['null', { email: 'a@x.se', consent: null }, '/consent'],
    ['a string', { email: 'a@x.se', consent: 'yes' }, '/consent'],
    ['not granted', { email: 'a@x.se', consent: { ...consent, granted: false } }, '/consent/granted'],
    ['granted "true" as a string', { email: 'a@x.se', consent: { ...consent, granted: 'true' } }, '/consent/granted'],
    ['granted 1', { email: 'a@x.se', consent: { ...consent, granted: 1 } }, '/consent/granted'],
    ['without granted', { email: 'a@x.se', consent: { text: 'x', version: '1' } }, '/consent/granted'],
  ])('answer consent_required when consent is %s', (_, body, pointer) => {
    let error: unknown;
    try {
      requireConsent(body);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'consent_required', options: { errors: [{ pointer }] } });
  });

  it('pass a granted consent on to the schema, which checks its text and version', () => {
    expect(() => requireConsent({ email: 'a@x.se', consent })).not.toThrow();
    expect(() => requireConsent([1, 2])).not.toThrow(); // not an object: the schema answers
    for (const bad of [
      { text: '' },
      { text: '   ' },
      { text: 'x'.repeat(2001) },
      { version: '' },
      { version: ' v1' },
      { version: 'v'.repeat(65) },
    ]) {
      expect(NewsletterSubscriptionRequest.safeParse({ email: 'a@x.se', consent: { ...consent, ...bad } }).success).toBe(false);
    }
    expect(
      NewsletterSubscriptionRequest.safeParse({ email: 'a@x.se', consent: { ...consent, text: 'Ja, tack! 📬\nMed vänliga hälsningar' } })
        .success,
    ).toBe(true);
  });
});

async function dbUrl(): Promise<string> {
  const rows = await execute(database, 'PRAGMA database_list');
  return `file:${String(rows.rows[0]!.file)}`;
}
