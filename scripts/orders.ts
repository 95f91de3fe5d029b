// npm run -s orders -- list [--site <handle>] [--limit N]        newest first
// npm run -s orders -- show <number> [--site <handle>]           one order with its lines
// npm run -s orders -- export --format csv [--site <handle>] [--out FILE]
import { createWriteStream } from 'node:fs';
import { parseArgs } from 'node:util';
import { db } from '@/lib/db';
import { migrateDatabase } from '@/db/migrate';
import { toMoney } from '@/lib/commerce/money';
import { allOrders, csvLine, listOrders, orderByNumber, orderCsvRows, ordersCsvHeader, siteIdByHandle } from '@/lib/commerce/orders';
import { closeDatabase } from '@/db';

const USAGE = `usage:
  orders list [--site <handle>] [--limit N]              the newest orders (default 50)
  orders show <number> [--site <handle>]                 one order: NHG-10042, or 10042 with --site
  orders export --format csv [--site <handle>] [--out FILE]   every order line as CSV (stdout without --out)`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    options: { site: { type: 'string' }, limit: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' } },
    allowPositionals: true,
  });
  if (!['list', 'show', 'export'].includes(command ?? '')) {
    console.error(USAGE);
    return 2;
  }
  const database = db();
  await migrateDatabase(database);
  let siteId: string | undefined;
  if (values.site) {
    siteId = (await siteIdByHandle(database, values.site)) ?? undefined;
    if (!siteId) {
      console.error(`There is no Site "${values.site}".`);
      return 1;
    }
  }
  const money = (minor: number, currency: string) => `${toMoney(minor, currency).amount} ${currency}`;

  if (command === 'list') {
    const limit = values.limit === undefined ? 50 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
      console.error('--limit must be a whole number from 1 to 10000.');
      return 2;
    }
    const rows = await listOrders(database, siteId, { limit });
    if (rows.length === 0) console.log('No orders yet.');
    for (const o of rows) {
      console.log(
        [
          o.number.padEnd(12),
          new Date(o.createdAt).toISOString().slice(0, 16).replace('T', ' '),
          money(o.total, o.currency).padStart(14),
          ` ${o.provider.padEnd(8)}`,
          o.oversold ? 'OVERSOLD' : '',
        ]
          .join('  ')
          .trimEnd(),
      );
    }
    return 0;
  }

  if (command === 'show') {
    const number = positionals[0];
    if (!number) {
      console.error(USAGE);
      return 2;
    }
    const order = await orderByNumber(database, siteId, number);
    if (!order) {
      console.error(
        `No order ${number}${siteId ? ` in Site "${values.site}"` : ''}${!siteId && !number.includes('-') ? ' (give the whole number, or --site)' : ''}.`,
      );
      return 1;
    }
    const a = order.shippingAddress;
    console.log(`Order ${order.number}${order.oversold ? '  — OVERSOLD: the stock did not cover every line; restock or refund' : ''}`);
    console.log(`  placed     ${new Date(order.createdAt).toISOString()}`);
    console.log(`  payment    ${order.provider} ${order.paymentReference}`);
    console.log(`  session    ${order.sessionId}`);
    console.log(`  customer   ${order.email ?? '-'}${order.phone ? `, ${order.phone}` : ''}`);
    if (a)
      console.log(
        `  ship to    ${[`${a.firstName} ${a.lastName}`, a.line1, a.line2, `${a.postalCode} ${a.city}`, a.region, a.country].filter(Boolean).join(', ')}`,
      );
    if (order.deliveryOption) console.log(`  delivery   ${order.deliveryOption.title} (${order.deliveryOption.carrier})`);
    console.log('  lines');
    for (const l of order.lines) {
      console.log(
        `    ${String(l.quantity).padStart(3)} × ${l.title} [${l.sku ?? l.variantId}]  ${money(l.total, order.currency)}${l.oversoldQuantity > 0 ? `  (${l.oversoldQuantity} not in stock)` : ''}`,
      );
    }
    console.log(`  subtotal   ${money(order.subtotal, order.currency)}`);
    if (order.shipping !== null) console.log(`  shipping   ${money(order.shipping, order.currency)}`);
    console.log(`  tax        ${money(order.tax, order.currency)}`);
    console.log(`  total      ${money(order.total, order.currency)}`);
    return 0;
  }

  if (values.format !== 'csv') {
    console.error('export needs --format csv (the one format there is).');
    return 2;
  }
  const out = values.out ? createWriteStream(values.out) : process.stdout;
  const write = (text: string) => new Promise<void>((resolve, reject) => out.write(text, (error) => (error ? reject(error) : resolve())));
  await write(csvLine([...ordersCsvHeader]));
  let count = 0;
  for await (const order of allOrders(database, siteId)) {
    await write(orderCsvRows(order));
    count += 1;
  }
  if (values.out) {
    await new Promise<void>((resolve) => (out as ReturnType<typeof createWriteStream>).end(resolve));
    console.error(`Exported ${count} order${count === 1 ? '' : 's'} to ${values.out}.`);
  }
  return 0;
}

const code = await main(process.argv.slice(2));
closeDatabase(db());
process.exit(code);
