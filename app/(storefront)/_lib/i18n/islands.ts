import type { Dictionary } from './types';

/**
 * The strings each client island needs, picked on the server and passed as props: an island
 * carries its own few words to the browser, never the whole dictionary (docs/storefront.md,
 * "What runs in the browser").
 */
function pick<K extends keyof Dictionary>(t: Dictionary, keys: readonly K[]): Pick<Dictionary, K> {
  return Object.fromEntries(keys.map((key) => [key, t[key]])) as Pick<Dictionary, K>;
}

/** error.tsx and the 404 of a cached page: they get no props, so the root layouts provide these. */
const CHROME = ['errorTitle', 'errorText', 'retry', 'notFoundTitle', 'notFoundText', 'allProducts'] as const;
export type ChromeStrings = Pick<Dictionary, (typeof CHROME)[number]>;
export const chromeStrings = (t: Dictionary): ChromeStrings => pick(t, CHROME);

const SIGNUP = ['email', 'sending'] as const;
export type SignupStrings = Pick<Dictionary, (typeof SIGNUP)[number]>;

const NEWSLETTER = [...SIGNUP, 'newsletterConsent', 'newsletterSubmit', 'newsletterDone'] as const;
export type NewsletterStrings = Pick<Dictionary, (typeof NEWSLETTER)[number]>;
export const newsletterStrings = (t: Dictionary): NewsletterStrings => pick(t, NEWSLETTER);

/** What an add-to-cart form says while and after it posts (app/(storefront)/_components/use-cart-command.ts). */
const CART_COMMAND = ['adding', 'viewCart', 'tryAgainLater'] as const;
export type CartCommandStrings = Pick<Dictionary, (typeof CART_COMMAND)[number]>;

const BUNDLE = [...CART_COMMAND, 'bundleIncludes', 'addBundle'] as const;
export type BundleStrings = Pick<Dictionary, (typeof BUNDLE)[number]>;
export const bundleStrings = (t: Dictionary): BundleStrings => pick(t, BUNDLE);

const PURCHASE = [
  ...CART_COMMAND,
  ...SIGNUP,
  'addToCart',
  'preorderCta',
  'priceWas',
  'quantity',
  'sku',
  'inStock',
  'lowStock',
  'outOfStock',
  'preorder',
  'restockTitle',
  'restockText',
  'restockSubmit',
  'restockDone',
  'restockConsent',
] as const;
export type PurchaseStrings = Pick<Dictionary, (typeof PURCHASE)[number]>;
export const purchaseStrings = (t: Dictionary): PurchaseStrings => pick(t, PURCHASE);

const UNSUBSCRIBE = [
  'unsubscribeText',
  'unsubscribeButton',
  'unsubscribing',
  'unsubscribedStock',
  'unsubscribedNewsletter',
  'linkInvalid',
  'tryAgainLater',
] as const;
export type UnsubscribeStrings = Pick<Dictionary, (typeof UNSUBSCRIBE)[number]>;
export const unsubscribeStrings = (t: Dictionary): UnsubscribeStrings => pick(t, UNSUBSCRIBE);

const CHECKOUT = [
  'email',
  'phone',
  'firstName',
  'lastName',
  'line1',
  'line2',
  'postalCode',
  'city',
  'usState',
  'country',
  'suggestions',
  'suggestionsHint',
  'saveAndContinue',
  'saving',
  'saved',
  'chooseDelivery',
  'homeDelivery',
  'pickupPoint',
  'paymentHint',
  'placeOrder',
] as const;
export type CheckoutStrings = Pick<Dictionary, (typeof CHECKOUT)[number]>;
export const checkoutStrings = (t: Dictionary): CheckoutStrings => pick(t, CHECKOUT);

const SEARCH_BOX = [
  'search',
  'searchLabel',
  'searchPlaceholder',
  'searchSuggestions',
  'searchSuggestionCount',
  'searchNoSuggestions',
] as const;
export type SearchBoxStrings = Pick<Dictionary, (typeof SEARCH_BOX)[number]>;
export const searchBoxStrings = (t: Dictionary): SearchBoxStrings => pick(t, SEARCH_BOX);

const CONFIRM = [
  'confirmText',
  'confirmButton',
  'confirming',
  'confirmedNewsletter',
  'confirmedStock',
  'confirmedStockNotified',
  'confirmedUnsubscribed',
  'linkInvalid',
  'linkExpired',
  'tryAgainLater',
  'busyText',
] as const;
export type ConfirmStrings = Pick<Dictionary, (typeof CONFIRM)[number]>;
export const confirmStrings = (t: Dictionary): ConfirmStrings => pick(t, CONFIRM);
