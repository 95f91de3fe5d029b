import { and, asc, desc, eq, gt, lt } from 'drizzle-orm';
import { orderLines, orders } from '@/db/schema';
import type { DbOrTx } from '@/db/client';

export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;
export type StoredOrder = OrderRow & { lines: OrderLineRow[] };

/** The order a checkout session became, if it did: what the session reads show as `order`. */
export async function orderForSession(database: DbOrTx, siteId: string, sessionId: string): Promise<Pick<OrderRow, 'number' | 'createdAt'> | null> {
  const [row] = await database
    .select({ number: orders.number, createdAt: orders.createdAt })
    .from(orders)
    .where(and(eq(orders.sessionId, sessionId), eq(orders.siteId, siteId)));
  return row ?? null;
}

async function withLines(database: DbOrTx, row: OrderRow | undefined): Promise<StoredOrder | null> {
  if (!row) return null;
  const lines = await database.select().from(orderLines).where(eq(orderLines.orderId, row.id)).orderBy(asc(orderLines.position));
  return { ...row, lines };
}

export async function orderById(database: DbOrTx, id: string): Promise<StoredOrder | null> {
  const [row] = await database.select().from(orders).where(eq(orders.id, id));
  return withLines(database, row);
}

/** An order of the Site by its number, as printed (`NHG-10042`) or by its digits (`10042`), any case. */
export async function orderByNumber(database: DbOrTx, siteId: string, number: string): Promise<StoredOrder | null> {
  const digits = /^(?:[A-Za-z0-9]+-)?(\d{1,12})$/.exec(number.trim())?.[1];
  if (!digits) return null;
  const [row] = await database.select().from(orders).where(and(eq(orders.siteId, siteId), eq(orders.seq, Number(digits))));
  if (!row || (number.includes('-') && row.number.toUpperCase() !== number.trim().toUpperCase())) return null;
  return withLines(database, row);
}

/** A page of the Site's orders, newest first; `before` is the last seq of the previous page. */
export async function listOrders(database: DbOrTx, siteId: string, page: { limit: number; before?: number }): Promise<OrderRow[]> {
  return database
    .select()
    .from(orders)
    .where(and(eq(orders.siteId, siteId), page.before === undefined ? undefined : lt(orders.seq, page.before)))
    .orderBy(desc(orders.seq))
    .limit(page.limit);
}

/** Every order of the Site with its lines, oldest first, read a page at a time (for the export). */
export async function* allOrders(database: DbOrTx, siteId: string, pageSize = 200): AsyncGenerator<StoredOrder> {
  let after = 0;
  for (;;) {
    const rows = await database
      .select()
      .from(orders)
      .where(and(eq(orders.siteId, siteId), gt(orders.seq, after)))
      .orderBy(asc(orders.seq))
      .limit(pageSize);
    for (const row of rows) yield (await withLines(database, row))!;
    if (rows.length < pageSize) return;
    after = rows.at(-1)!.seq;
  }
}
