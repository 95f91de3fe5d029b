import { and, asc, eq, inArray } from 'drizzle-orm';
import { markets, productImages, products, sites } from '@/db/schema';
import type { StoredAddress, StoredDeliveryOption } from '@/db/schema';
import type { PostalAddress } from '@/lib/contract/site-settings-document';
import type { Database } from '@/db/client';
import type { Money } from '@/lib/contract/common';
import { toMoney } from '../money';
import { OUTBOX_TOPICS, type OutboxMessage } from '../signups/outbox';
import { orderById } from './read';

/** Everything an order mail shows, worked out from the stored order (rendering is lib/mail's job). */
export type OrderMail = {
  kind: 'confirmation' | 'merchant_notice';
  to: string;
  locale: string;
  shopName: string;
  shopUrl: string;
  /** The shop's legal name and postal address (the Site's settings), when it has one. */
  sender: { legalName: string | null; postalAddress: PostalAddress } | null;
  number: string;
  placedAt: number;
  oversold: boolean;
  email: string | null;
  lines: {
    title: string;
    sku: string | null;
    quantity: number;
    unitPrice: Money;
    total: Money;
    imageUrl: string | null;
    oversoldQuantity: number;
  }[];
  totals: { subtotal: Money; shipping: Money | null; tax: Money; total: Money; taxInclusive: boolean };
  shippingAddress: StoredAddress | null;
  delivery: StoredDeliveryOption | null;
  deliveryPrice: Money | null;
};

export type OrderComposition = { send: OrderMail } | { skip: string };

export function isOrderTopic(topic: string): boolean {
  return topic === OUTBOX_TOPICS.orderConfirmation || topic === OUTBOX_TOPICS.orderNotice;
}

/**
 * The shopper's receipt (to the order's address, in the session's language) or the
 * merchant's notice (to `merchantEmail`, in the Site's default language). Lines as charged,
 * each with its product's first picture (absolute, on the shop's origin).
 */
export async function composeOrderMail(
  database: Database,
  message: OutboxMessage,
  origin: string,
  merchantEmail: string | undefined,
): Promise<OrderComposition> {
  const orderId = String(message.payload.orderId ?? message.aggregateId);
  const order = await orderById(database, orderId);
  if (!order) return { skip: 'the order no longer exists' };
  const merchant = message.topic === OUTBOX_TOPICS.orderNotice;
  if (merchant && !merchantEmail) return { skip: 'no MERCHANT_EMAIL is set' };
  if (!merchant && !order.email) return { skip: 'the order has no e-mail address' };

  const [site] = await database
    .select({ name: sites.name, defaultLocale: sites.defaultLocale, legalName: sites.legalName, postalAddress: sites.postalAddress })
    .from(sites)
    .where(eq(sites.id, order.siteId));
  const [market] = await database
    .select({ taxInclusive: markets.taxInclusive })
    .from(markets)
    .where(and(eq(markets.siteId, order.siteId), eq(markets.id, order.marketId)));
  const handles = [...new Set(order.lines.map((l) => l.productHandle))];
  const images =
    handles.length === 0
      ? []
      : await database
          .select({ handle: products.handle, url: productImages.url, position: productImages.position })
          .from(productImages)
          .innerJoin(products, eq(products.id, productImages.productId))
          .where(and(eq(products.siteId, order.siteId), inArray(products.handle, handles)))
          .orderBy(asc(productImages.position));
  const base = origin.replace(/\/+$/, '');
  const imageOf = new Map<string, string>();
  for (const image of images)
    if (!imageOf.has(image.handle)) imageOf.set(image.handle, image.url.startsWith('/') ? `${base}${image.url}` : image.url);
  const money = (minor: number) => toMoney(minor, order.currency);

  return {
    send: {
      kind: merchant ? 'merchant_notice' : 'confirmation',
      to: merchant ? merchantEmail! : order.email!,
      locale: merchant ? (site?.defaultLocale ?? 'en') : order.locale,
      shopName: site?.name ?? '',
      shopUrl: `${base}/`,
      sender: site?.postalAddress ? { legalName: site.legalName, postalAddress: site.postalAddress } : null,
      number: order.number,
      placedAt: order.createdAt,
      oversold: order.oversold,
      email: order.email,
      lines: order.lines.map((l) => ({
        title: l.title,
        sku: l.sku,
        quantity: l.quantity,
        unitPrice: money(l.unitPrice),
        total: money(l.total),
        imageUrl: imageOf.get(l.productHandle) ?? null,
        oversoldQuantity: l.oversoldQuantity,
      })),
      totals: {
        subtotal: money(order.subtotal),
        shipping: order.shipping === null ? null : money(order.shipping),
        tax: money(order.tax),
        total: money(order.total),
        taxInclusive: market?.taxInclusive ?? true,
      },
      shippingAddress: order.shippingAddress,
      delivery: order.deliveryOption,
      deliveryPrice: order.deliveryOption ? money(order.deliveryOption.amount) : null,
    },
  };
}
