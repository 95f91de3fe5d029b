export { subscribeToStockNotifications, type StockSignupInput } from './stock';
export { subscribeToNewsletter, type NewsletterSignupInput } from './newsletter';
export { requireConsent, consentTextHash } from './consent';
export { normaliseEmail, MAX_EMAIL_LENGTH } from '@/lib/contract/email';
export { OUTBOX_TOPICS, type OutboxTopic } from './outbox';
export { confirmSubscription, unsubscribeByToken, CONFIRM_TOKEN_TTL_MS, type SubscriptionState, type WithdrawalVia } from './tokens';
export type { SignupInput, SignupOutcome } from './types';
export { mailboxOf, DEFAULT_MAILS_PER_MAILBOX, DEFAULT_MAILS_PER_SHOPPER, type MailBudget } from './mail-budget';
