import { toMoney } from '../money';
import type { StoredOrder } from './read';

/** One row per order line; the order's own columns repeat on each, so a spreadsheet can filter and sum. */
export const ordersCsvHeader = [
  'order_number',
  'created_at',
  'oversold',
  'provider',
  'payment_reference',
  'email',
  'market',
  'currency',
  'ship_to_country',
  'line',
  'sku',
  'title',
  'quantity',
  'unit_price',
  'line_total',
  'oversold_quantity',
  'subtotal',
  'shipping',
  'tax',
  'total',
] as const;

/** A field as RFC 4180 wants it: quoted when it holds a comma, quote or line break; a leading =+-@ is neutralised for spreadsheets. */
function field(value: string | number | boolean | null): string {
  let text = value === null ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: (string | number | boolean | null)[]): string {
  return `${values.map(field).join(',')}\r\n`;
}

export function orderCsvRows(order: StoredOrder): string {
  const money = (minor: number | null) => (minor === null ? null : toMoney(minor, order.currency).amount);
  const common = [
    order.number,
    new Date(order.createdAt).toISOString(),
    order.oversold,
    order.provider,
    order.paymentReference,
    order.email,
    order.marketId,
    order.currency,
    order.shippingAddress?.country ?? null,
  ];
  const totals = [money(order.subtotal), money(order.shipping), money(order.tax), money(order.total)];
  return order.lines
    .map((l, i) =>
      csvLine([...common, i + 1, l.sku, l.title, l.quantity, money(l.unitPrice), money(l.total), l.oversoldQuantity, ...totals]),
    )
    .join('');
}
