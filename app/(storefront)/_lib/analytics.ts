import 'server-only';
import { randomUUID } from 'node:crypto';
import { after } from 'next/server';
import { cookies } from 'next/headers';
import { sendAnalytics, type AnalyticsEventInput } from '@/lib/site-client';
import { logger } from '@/lib/platform/observability/logger';
import { buyerIp, secureCookies } from './shop';

export const ANON_COOKIE = 'anon_id';
const ANON_ID = /^[A-Za-z0-9_-]{8,64}$/;

export type ShopEvent = Omit<AnalyticsEventInput, 'anonymousId' | 'occurredAt'>;

/**
 * The browser's random, first-party id (HttpOnly: page scripts never see it). Made on
 * first use; only server actions and route handlers call this, because only they can set
 * a cookie.
 */
async function anonymousId(): Promise<string> {
  const jar = await cookies();
  const current = jar.get(ANON_COOKIE)?.value;
  if (current && ANON_ID.test(current)) return current;
  const id = randomUUID();
  jar.set(ANON_COOKIE, id, { httpOnly: true, sameSite: 'lax', secure: await secureCookies(), path: '/', maxAge: 365 * 86400 });
  return id;
}

/**
 * Queues events for the analytics operation after the response is sent. Only ids,
 * handles, paths and amounts go out — never an e-mail, name or address — and a failure
 * is logged by code and otherwise ignored: analytics never breaks a page.
 */
export async function track(events: ShopEvent[]): Promise<void> {
  if (events.length === 0) return;
  const [id, ip] = await Promise.all([anonymousId(), buyerIp()]);
  const occurredAt = new Date().toISOString();
  const batch = events.slice(0, 50).map((event) => ({ ...event, anonymousId: id, occurredAt }));
  after(async () => {
    try {
      await sendAnalytics(batch, { buyerIp: ip });
    } catch (error) {
      logger().warn({ error: error instanceof Error ? error.name : 'error' }, 'storefront: analytics not sent');
    }
  });
}
