/** Checkout sessions: the domain behind checkout-session creation and the merchant checkout operations. */
export { createCheckoutSession, planCheckoutSession, getCheckoutSession, updateCheckoutSession, completeCheckoutSession, sessionMarket } from './sessions';
export { changeCheckoutCountry, type CountryChangeWarning } from './country';
export { deliveryOptions } from './delivery';
export { suggestAddresses, addressSourceFor, addressBookSource, type AddressSource } from './address-source';
export { prepareCheckoutPayment, paymentProvider, sandboxPaymentProvider, paymentView, type PaymentProvider } from './payment';
export { toCheckoutSession } from './view';
export { sessionEtag, type LoadedSession } from './store';
export { transition, statusAt, assertOpen, type SessionStatus, type SessionEvent } from './state';
export { computeTotals, mergeLines, mergeBundles } from './pricing';
export { maybeSweepExpiredCheckoutSessions, sweepExpiredCheckoutSessions, SWEEP_PROBABILITY, KEEP_AFTER_EXPIRY_MS } from './sweep';
export { allocateBundlePrice } from './bundles';
