// The background drain `npm start` runs (lib/jobs: the outbox job on its timer), as the server runs it: settings
// from the environment, the app's database client, and no SMTP_URL, so mails become .eml files.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrateDatabase } from '@/db/migrate';
import { seedDatabase } from '@/db/seed';
import { authenticateCredential, createCredential, type SiteContext } from '@/lib/platform/auth/credentials';
import { subscribeToNewsletter } from '@/lib/commerce/signups';
import { db } from '@/lib/db';
import { startJobTimers } from '@/lib/jobs/timers';
import { POST } from '@/app/site/v1/subscriptions/confirmations/route';
import { newsletterSubscriptions } from '@/db/schema';
import { header, links, part, waitFor } from './support/smtp';
import { logger } from '@/lib/platform/observability/logger';
import { closeDatabase } from '@/db';

// lib/jobs and lib/db are server-only; this test is the server.
vi.mock('server-only', () => ({}));

const dir = mkdtempSync(join(tmpdir(), 'sd-worker-'));
const url = `file:${join(dir, 'site.db')}`;
// Read once, on first use (lib/env.ts): set before anything asks.
Object.assign(process.env, {
  DATABASE_URL: url,
  OUTBOX_DRAIN: 'on',
  OUTBOX_DRAIN_INTERVAL_MS: '200',
  STOREFRONT_ORIGIN: 'https://shop.example.test',
});
delete process.env.SMTP_URL;
delete process.env.MAIL_EML_DIR;

let demo: SiteContext;
let credential: string;
// Job lines go to the process's logger (one JSON line each on stdout): read them there.
const log = vi.spyOn(logger(), 'info').mockImplementation((() => undefined) as never);

beforeAll(async () => {
  await migrateDatabase(db());
  await seedDatabase(db());
  credential = (await createCredential(db(), { siteHandle: 'demo', scope: 'core' })).token;
  demo = (await authenticateCredential(db(), credential))!;
});

afterAll(() => {
  log.mockRestore();
  closeDatabase(db());
});

describe('the background drain', () => {
  it("sends a signup's mail within a few passes, as an .eml file beside the database, whose link confirms through the API; stops cleanly", async () => {
    const worker = startJobTimers(['outbox'])!;
    expect(worker).not.toBeNull();
    // One set per process, however often the server asks.
    expect(startJobTimers(['outbox'])).toBe(worker);

    const email = `worker.${Date.now()}@example.se`;
    await subscribeToNewsletter(db(), demo, { email, consent: { granted: true, text: 'Send me the newsletter.', version: '2026-01' } });
    const folder = join(dir, 'outbox');
    // The log line comes once the file is in place: wait for it, then read the file it names.
    const line = await waitFor(
      () =>
        log.mock.calls
          .map((c) => String(c[0]))
          .find((l) => {
            const path = /^\[mail\] no SMTP_URL set: wrote (.+\.eml)$/.exec(l)?.[1];
            return path !== undefined && path.startsWith(folder) && existsSync(path) && readFileSync(path, 'utf8').includes(email);
          }),
      'the log line of the .eml file',
      15_000,
    );
    const file = line.slice('[mail] no SMTP_URL set: wrote '.length);
    expect(readdirSync(folder)).toContain(file.slice(folder.length + 1));
    const raw = readFileSync(file, 'utf8');
    expect(header(raw, 'List-Unsubscribe')).toMatch(/^<https:\/\/shop\.example\.test\/subscriptions\/one-click\?token=/);
    // One log line per mail.
    expect(log.mock.calls.map((c) => String(c[0])).filter((l) => l.includes(file))).toHaveLength(1);

    // The mail's confirm link, confirmed through the API route the storefront calls.
    const confirmLink = links(part(raw, 'text/plain')!)
      .map((l) => new URL(l))
      .find((l) => l.searchParams.get('to')?.startsWith('/subscriptions/confirm?'))!;
    const token = new URLSearchParams(confirmLink.searchParams.get('to')!.split('?')[1]).get('token')!;
    const confirmViaApi = () =>
      POST(
        new Request('http://localhost/site/v1/subscriptions/confirmations', {
          method: 'POST',
          headers: { Authorization: `Bearer ${credential}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ token }),
        }),
        { params: Promise.resolve({}) },
      );
    const res = await confirmViaApi();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ kind: 'newsletter', status: 'active', changed: true });
    const [row] = await db().select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, email));
    expect(row!.status).toBe('active');

    await worker.stop();
    // Stopped: the next start is a new worker.
    const again = startJobTimers(['outbox'])!;
    expect(again).not.toBe(worker);
    await again.stop();
  });
});
