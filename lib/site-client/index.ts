import 'server-only';

/**
 * The typed, server-only client for /site/v1. Every answer is parsed with the same zod
 * schemas the API is built from (lib/contract), so a front end sees exactly the contract.
 * The credential is attached here, on the server, and nowhere else.
 */
export * from './catalog';
export * from './signups';
export * from './checkout';
export * from './analytics';
export { call } from './request';
export { nameShoppersWith } from './config';
export { shareChecksWithin } from './in-process';
export { SiteApiError, SiteApiUnavailable, isSiteApiError } from './errors';
export type { CallInput, CallOutput, CallResult, FieldError, ProblemBody } from './types';
export { noteApiFailure, siteApiAnswers } from './health';
export { shopperLimitedFor } from './shopper-limits';
export {
  logReadsWith,
  noteRead,
  partTag,
  readLogEntries,
  readsUnchanged,
  scopesOfTag,
  serialiseReads,
  UNCHECKABLE,
  type ReadLog,
} from './reads';
