import { and, asc, desc, eq, gt, lt } from 'drizzle-orm';
import { orderLines, orders, sites } from '@/db/schema';
import type { DbOrTx } from '@/db/client';

export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;
export type StoredOrder = OrderRow & { lines: OrderLineRow[] };

/** The order a checkout session became, if it did: what the session reads show as `order`. */
export async function orderForSession(
  database: DbOrTx,
  siteId: string,
  sessionId: string,
): Promise<Pick<OrderRow, 'number' | 'createdAt'> | null> {
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

/**
 * An order by its number as printed (`NHG-10042`, any case), or by its digits (`10042`)
 * within one Site. Without a Site, the printed number must name one order.
 */
export async function orderByNumber(database: DbOrTx, siteId: string | undefined, number: string): Promise<StoredOrder | null> {
  const digits = /^(?:[A-Za-z0-9]+-)?(\d{1,12})$/.exec(number.trim())?.[1];
  if (!digits) return null;
  const printed = number.includes('-') ? number.trim().toUpperCase() : null;
  if (!siteId && !printed) return null;
  const rows = await database
    .select()
    .from(orders)
    .where(and(siteId ? eq(orders.siteId, siteId) : undefined, eq(orders.seq, Number(digits))));
  const matching = rows.filter((r) => !printed || r.number.toUpperCase() === printed);
  return matching.length === 1 ? withLines(database, matching[0]) : null;
}

/** A page of orders (of one Site, or of all), newest first; `before` is the createdAt of the previous page's last. */
export async function listOrders(
  database: DbOrTx,
  siteId: string | undefined,
  page: { limit: number; before?: number },
): Promise<OrderRow[]> {
  return database
    .select()
    .from(orders)
    .where(and(siteId ? eq(orders.siteId, siteId) : undefined, page.before === undefined ? undefined : lt(orders.createdAt, page.before)))
    .orderBy(desc(orders.createdAt), desc(orders.seq))
    .limit(page.limit);
}

/** Every order (of one Site, or of all) with its lines, oldest first, read a page at a time (for the export). */
export async function* allOrders(database: DbOrTx, siteId: string | undefined, pageSize = 200): AsyncGenerator<StoredOrder> {
  let after = '';
  for (;;) {
    const rows = await database
      .select()
      .from(orders)
      .where(and(siteId ? eq(orders.siteId, siteId) : undefined, gt(orders.id, after)))
      .orderBy(asc(orders.id))
      .limit(pageSize);
    for (const row of rows) yield (await withLines(database, row))!;
    if (rows.length < pageSize) return;
    after = rows.at(-1)!.id;
  }
}

/** A Site's id by its handle (the CLI's --site). */
export async function siteIdByHandle(database: DbOrTx, handle: string): Promise<string | null> {
  const [row] = await database.select({ id: sites.id }).from(sites).where(eq(sites.handle, handle));
  return row?.id ?? null;
}
