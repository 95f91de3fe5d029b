import 'server-only';
import type { z } from 'zod';
import { submitAnalyticsEvents } from '@/lib/contract/operations/analytics';
import type { AnalyticsEvent } from '@/lib/contract/analytics';
import { call } from './request';

export type AnalyticsEventInput = z.input<typeof AnalyticsEvent>;

/** Sends a batch of events (1–50). Callers decide whether a failure matters; usually it does not. */
export async function sendAnalytics(events: AnalyticsEventInput[], options: { buyerIp?: string | null } = {}) {
  return (await call(submitAnalyticsEvents, { body: { events }, ...options })).data;
}
