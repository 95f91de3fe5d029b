import { analyticsEvents } from '@/db/schema';
import type { DbOrTx } from '@/db/client';
import type { AnalyticsEvent, AnalyticsEventSlot, AnalyticsReceipt, AnalyticsRejection } from '@/lib/contract/analytics';
import { findPersonalData } from './personal-data';
import { valueMinorUnits } from './value';

export const MAX_FUTURE_MS = 5 * 60_000;
export const MAX_AGE_MS = 7 * 86_400_000;

type Row = typeof analyticsEvents.$inferInsert;

/**
 * Stores the well-formed, pseudonymous events of a batch and reports the rest by index.
 * All accepted events go in with one INSERT (one implicit transaction): a batch is
 * stored whole or, if the database fails, not at all. Nothing about the request — its
 * IP, Site-Buyer-IP, user agent or credential — is an input here, so none can be stored.
 */
export async function recordAnalyticsEvents(
  database: DbOrTx,
  site: { id: string },
  slots: readonly AnalyticsEventSlot[],
  options: { now?: number } = {},
): Promise<AnalyticsReceipt> {
  const receivedAt = options.now ?? Date.now();
  const rows: Row[] = [];
  const rejected: AnalyticsRejection[] = [];
  slots.forEach((slot, index) => {
    const outcome = slot.ok ? judge(slot.event, receivedAt) : ({ code: 'invalid_event', pointer: slot.pointer } as const);
    if ('code' in outcome) {
      rejected.push({ index, code: outcome.code, pointer: `/events/${index}${outcome.pointer}` });
    } else {
      rows.push({ ...outcome.row, siteId: site.id, receivedAt });
    }
  });
  if (rows.length > 0) await database.insert(analyticsEvents).values(rows);
  return { accepted: rows.length, rejected };
}

type Judgement = { code: AnalyticsRejection['code']; pointer: string } | { row: Omit<Row, 'siteId' | 'receivedAt'> };

function judge(event: AnalyticsEvent, now: number): Judgement {
  const personal = personalDataPointer(event);
  if (personal !== null) return { code: 'personal_data', pointer: personal };

  let value: { amountMinor: number; currency: string } | undefined;
  if (event.value) {
    const amountMinor = valueMinorUnits(event.value.amount, event.value.currency);
    if (amountMinor === null) return { code: 'invalid_event', pointer: '/value' };
    value = { amountMinor, currency: event.value.currency };
  }

  const occurredAt = Date.parse(event.occurredAt);
  if (!Number.isFinite(occurredAt) || occurredAt > now + MAX_FUTURE_MS || occurredAt < now - MAX_AGE_MS) {
    return { code: 'occurred_at_out_of_range', pointer: '/occurredAt' };
  }

  // Named one by one, so a field added to the schema is stored only when someone decides it should be.
  const { path, productHandle, variantId, collectionHandle, query, quantity, experiment } = event;
  return {
    row: {
      // The UTC day the event happened on: reports count behaviour by when it happened, not when it arrived.
      day: new Date(occurredAt).toISOString().slice(0, 10),
      type: event.type,
      occurredAt,
      anonymousId: event.anonymousId,
      payload: dropUndefined({ path, productHandle, variantId, collectionHandle, query, quantity, value, experiment }),
    },
  };
}

function dropUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}

/** JSON Pointer (relative to the event) of the first string that looks like personal data. */
export function personalDataPointer(value: unknown, pointer = ''): string | null {
  if (typeof value === 'string') return findPersonalData(value) ? pointer : null;
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const found = personalDataPointer(child, `${pointer}/${key}`);
      if (found !== null) return found;
    }
  }
  return null;
}
