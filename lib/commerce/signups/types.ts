/** What both signups take once the body is validated (the e-mail already normalised). */
export type SignupInput = {
  email: string;
  consent: { granted: true; text: string; version: string };
  locale?: string;
  market?: string;
};

/**
 * What happened, for the caller's logs and the tests. The HTTP answer never shows it:
 * a new and a known address get the same 202.
 */
export type SignupOutcome =
  | { created: true; subscriptionId: string; consentId: string }
  | { created: false; consentId: string }
  /** The confirmation mail was over its daily budget (mail-budget.ts): nothing was stored. */
  | { created: false; held: true };
