import { and, asc, eq, inArray } from 'drizzle-orm';
import {
  markets,
  newsletterSubscriptions,
  notificationFlows,
  productImages,
  productTranslations,
  productVariants,
  products,
  sites,
  stockSubscriptions,
  variantPrices,
} from '@/db/schema';
import type { Money } from '@/lib/contract/common';
import type { Database, DbOrTx } from '@/db/client';
import type { PostalAddress } from '@/db/schema';
import { OUTBOX_TOPICS, type OutboxMessage } from './outbox';
import { mintToken, type SubscriptionKind } from './tokens';
import { displayedVariantTitle } from '../catalog/option-texts';
import { imageShowing } from '../catalog/product-loaders';
import { toMoney } from '../money';

export type MessageTemplate = 'newsletter_confirmation' | 'stock_confirmation' | 'back_in_stock';

/**
 * Everything a mail needs, worked out from the outbox row's references as they are now:
 * the address, the subscriber's locale, product and variant names in that locale, and the
 * links (with freshly minted tokens). Rendering it into text and HTML is lib/mail's job.
 */
export type OutgoingMessage = {
  outboxId: number;
  siteId: string;
  shopName: string;
  /** Who sends it and where they can be written to (the Site's settings), for the footer; null until the settings give an address. */
  sender: { legalName: string | null; postalAddress: PostalAddress } | null;
  to: string;
  locale: string;
  template: MessageTemplate;
  /** The stock flow the subscription chose: it picks the wording of a stock mail. */
  flowHandle: string | null;
  product: {
    title: string;
    variantTitle: string | null;
    /** Back in stock only: the variant's price in the subscriber's market (null where it has none). */
    price?: Money | null;
    /** Back in stock only: the variant's picture (else the product's first), an absolute URL on the shop's origin. */
    image?: MailImage | null;
  } | null;
  links: { shop: string; confirm: string | null; product: string | null; unsubscribe: string; oneClickUnsubscribe: string };
};

export type MailImage = { url: string; alt: string; width: number; height: number };

export type Composition = { send: OutgoingMessage } | { skip: string };

/** Storefront paths the links point at (app/(storefront)/subscriptions, app/(storefront)/visit). */
export const STOREFRONT_PATHS = {
  confirm: '/subscriptions/confirm',
  unsubscribe: '/subscriptions/unsubscribe',
  oneClick: '/subscriptions/one-click',
  visit: '/visit',
} as const;

const TEMPLATE_OF: Record<string, { template: MessageTemplate; kind: SubscriptionKind }> = {
  [OUTBOX_TOPICS.newsletterConfirmation]: { template: 'newsletter_confirmation', kind: 'newsletter' },
  [OUTBOX_TOPICS.stockConfirmation]: { template: 'stock_confirmation', kind: 'stock' },
  [OUTBOX_TOPICS.backInStock]: { template: 'back_in_stock', kind: 'stock' },
};

type Subscription = {
  id: string;
  siteId: string;
  email: string;
  status: string;
  consentId: string;
  locale: string | null;
  marketId: string | null;
  variantId: string | null;
  flowId: string | null;
};

async function loadSubscription(tx: DbOrTx, kind: SubscriptionKind, siteId: string, id: string): Promise<Subscription | null> {
  if (kind === 'newsletter') {
    const [row] = await tx
      .select()
      .from(newsletterSubscriptions)
      .where(and(eq(newsletterSubscriptions.id, id), eq(newsletterSubscriptions.siteId, siteId)));
    return row ? { ...row, variantId: null, flowId: null } : null;
  }
  const [row] = await tx
    .select()
    .from(stockSubscriptions)
    .where(and(eq(stockSubscriptions.id, id), eq(stockSubscriptions.siteId, siteId)));
  return row ?? null;
}

/**
 * Turns one claimed outbox row into the message to send now, or says why there is nothing
 * to send: a confirmation for a subscription that is no longer waiting (confirmed, left, or
 * signed up again with a newer consent), a restock message for a subscription that left.
 * The tokens are minted here, at send time, so a token is never stored anywhere but as a hash.
 */
export async function composeMessage(database: Database, message: OutboxMessage, origin: string, now = Date.now()): Promise<Composition> {
  const route = TEMPLATE_OF[message.topic];
  if (!route) return { skip: `no mail for topic ${message.topic}` };
  const base = origin.replace(/\/+$/, '');

  return database.transaction(async (tx) => {
    const sub = await loadSubscription(tx, route.kind, message.siteId, message.aggregateId);
    if (!sub) return { skip: 'the subscription no longer exists' };
    if (route.template === 'back_in_stock') {
      if (sub.status !== 'notified') return { skip: `the subscription is ${sub.status}, not notified` };
    } else if (sub.status !== 'pending_confirmation' || (message.payload.consentId && message.payload.consentId !== sub.consentId)) {
      return { skip: 'the subscription is no longer waiting for this confirmation' };
    }

    const [site] = await tx
      .select({
        name: sites.name,
        defaultLocale: sites.defaultLocale,
        defaultMarketId: sites.defaultMarketId,
        legalName: sites.legalName,
        postalAddress: sites.postalAddress,
      })
      .from(sites)
      .where(eq(sites.id, sub.siteId));
    if (!site) return { skip: 'the Site no longer exists' };
    const locale = sub.locale ?? site.defaultLocale;
    const marketId = sub.marketId ?? site.defaultMarketId;

    // Every visible link opens the shop in the subscriber's market and language (/visit sets
    // them, then goes on to the page); the URL carries nothing personal but a token.
    const visit = (path: string) => `${base}${STOREFRONT_PATHS.visit}?${new URLSearchParams({ market: marketId, locale, to: path })}`;
    let product: OutgoingMessage['product'] = null;
    let productLink: string | null = null;
    let flowHandle: string | null = null;
    if (sub.variantId) {
      const [variant] = await tx
        .select({
          productId: products.id,
          handle: products.handle,
          variantTitle: productVariants.title,
          variantOptions: productVariants.options,
          options: products.options,
        })
        .from(productVariants)
        .innerJoin(products, eq(products.id, productVariants.productId))
        .where(and(eq(productVariants.id, sub.variantId), eq(productVariants.siteId, sub.siteId)));
      if (!variant) return { skip: 'the variant no longer exists' };
      const texts = await tx
        .select({ locale: productTranslations.locale, title: productTranslations.title, options: productTranslations.options })
        .from(productTranslations)
        .where(
          and(eq(productTranslations.productId, variant.productId), inArray(productTranslations.locale, [locale, site.defaultLocale])),
        );
      const text = texts.find((t) => t.locale === locale) ?? texts[0];
      const title = text?.title ?? variant.handle;
      // A product without options has one variant whose title says nothing ("Default").
      const variantTitle = displayedVariantTitle(variant.variantTitle, variant.variantOptions, variant.options, text?.options);
      product = { title, variantTitle: variant.options.length > 0 ? variantTitle : null };
      if (route.template === 'back_in_stock') {
        const [priced] = await tx
          .select({ amount: variantPrices.amount, currency: markets.currency })
          .from(variantPrices)
          .innerJoin(markets, and(eq(markets.siteId, sub.siteId), eq(markets.id, variantPrices.marketId)))
          .where(and(eq(variantPrices.variantId, sub.variantId), eq(variantPrices.marketId, marketId)));
        const images = await tx
          .select({
            url: productImages.url,
            alt: productImages.alt,
            alts: productImages.alts,
            width: productImages.width,
            height: productImages.height,
          })
          .from(productImages)
          .where(eq(productImages.productId, variant.productId))
          .orderBy(asc(productImages.position));
        product.price = priced ? toMoney(priced.amount, priced.currency) : null;
        product.image = mailImage(images, Object.values(variant.variantOptions), locale, base);
      }
      productLink = visit(`/products/${encodeURIComponent(variant.handle)}?variant=${encodeURIComponent(sub.variantId)}`);
    }
    if (sub.flowId) {
      const [flow] = await tx
        .select({ handle: notificationFlows.handle })
        .from(notificationFlows)
        .where(eq(notificationFlows.id, sub.flowId));
      flowHandle = flow?.handle ?? null;
    }

    const grant = { siteId: sub.siteId, kind: route.kind, subscriptionId: sub.id, consentId: sub.consentId, now };
    const unsubscribe = await mintToken(tx, { ...grant, purpose: 'unsubscribe' });
    const confirm = route.template === 'back_in_stock' ? null : await mintToken(tx, { ...grant, purpose: 'confirm' });
    const withToken = (path: string, token: string) => `${path}?${new URLSearchParams({ token })}`;

    return {
      send: {
        outboxId: message.id,
        siteId: sub.siteId,
        shopName: site.name,
        sender: site.postalAddress ? { legalName: site.legalName, postalAddress: site.postalAddress } : null,
        to: sub.email,
        locale,
        template: route.template,
        flowHandle,
        product,
        links: {
          shop: visit('/'),
          confirm: confirm ? visit(withToken(STOREFRONT_PATHS.confirm, confirm)) : null,
          product: productLink,
          unsubscribe: visit(withToken(STOREFRONT_PATHS.unsubscribe, unsubscribe)),
          // RFC 8058: the mail client POSTs here itself, so it goes straight to the endpoint.
          oneClickUnsubscribe: `${base}${withToken(STOREFRONT_PATHS.oneClick, unsubscribe)}`,
        },
      },
    };
  });
}

/**
 * The picture of the variant (the product's image whose alt text names one of its option
 * values, as the product page picks it), else the product's first, with its alt text in the
 * subscriber's locale. Only an image on the shop's own origin or an absolute https URL is
 * used: the same address for every recipient, so loading it tells nobody who opened the mail.
 */
function mailImage(
  images: { url: string; alt: string; alts: Record<string, string> | null; width: number; height: number }[],
  values: string[],
  locale: string,
  base: string,
): MailImage | null {
  const shown = imageShowing(images, values);
  const image = (shown && images.find((i) => i.url === shown.url)) ?? images[0];
  if (!image) return null;
  const url =
    image.url.startsWith('/') && !image.url.startsWith('//') ? `${base}${image.url}` : /^https:\/\//i.test(image.url) ? image.url : null;
  return url ? { url, alt: image.alts?.[locale] ?? image.alt, width: image.width, height: image.height } : null;
}
