/** Checkout sessions: the domain behind checkout-session creation and the merchant checkout operations. */
export { createCheckoutSession, planCheckoutSession, getCheckoutSession, updateCheckoutSession, sessionMarket } from './sessions';
export { changeCheckoutCountry, type CountryChangeWarning } from './country';
export { deliveryOptions } from './delivery';
export { suggestAddresses, addressSourceFor, addressBookSource, type AddressSource } from './address-source';
export { prepareCheckoutPayment, sandboxPaymentProvider, paymentView, type PaymentProvider, type PaymentEvent } from './payment';
export { stripePaymentProvider, stripePaymentEvent, verifyStripeEvent, type StripeSettings } from './stripe';
export { toCheckoutSession } from './view';
export { sessionEtag, type LoadedSession } from './session-storage';
export { transition, statusAt, assertOpen, type SessionStatus, type SessionEvent } from './state';
export { computeTotals, mergeLines, mergeBundles } from './pricing';
export { maybeSweepExpiredCheckoutSessions, sweepExpiredCheckoutSessions, SWEEP_PROBABILITY, KEEP_AFTER_EXPIRY_MS } from './sweep';
export { allocateBundlePrice } from './bundles';
