import { randomBytes } from 'node:crypto';
import type { Connection } from '@/db';
import { expect, type APIRequestContext } from '@playwright/test';
import { Product } from '@/lib/contract/catalog';
import { creds, get } from './api';
import { mainDatabaseUrl, rawClient } from './instances';

export const STOCK = '/commerce/stock-subscriptions';
export const NEWSLETTER = '/newsletter/subscriptions';
export const consent = { granted: true, text: 'Yes, e-mail me once when this is back in stock.', version: '2026-01' };

/** A fresh address per test, so runs and tests never see each other's rows. */
export function freshEmail(tag = 'e2e'): string {
  return `${tag}.${randomBytes(6).toString('hex')}@example.se`;
}

/** The e2e server's database, read-only: for ids the API rightly never shows (drafts) and to count rows. */
export function e2eDatabase(url = mainDatabaseUrl()): Connection {
  return rawClient(url);
}

export async function rowsFor(database: Connection, email: string) {
  const count = async (sql: string) => Number((await database.execute({ sql, args: [email] })).rows[0]![0]);
  return {
    stock: await count('SELECT count(*) FROM stock_subscriptions WHERE email = ?'),
    newsletter: await count('SELECT count(*) FROM newsletter_subscriptions WHERE email = ?'),
    consents: await count('SELECT count(*) FROM consents WHERE email = ?'),
    outbox: await count("SELECT count(*) FROM outbox_messages WHERE json_extract(payload, '$.email') = ?"),
  };
}

export async function variantIds(request: APIRequestContext, handle: string, token = creds().core): Promise<string[]> {
  const res = await get(request, `/commerce/products/${handle}`, token);
  expect(res.status(), await res.text()).toBe(200);
  return Product.parse(await res.json()).variants.map((v) => v.id);
}
