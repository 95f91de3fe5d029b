export { recordAnalyticsEvents, personalDataPointer, MAX_AGE_MS, MAX_FUTURE_MS } from './record';
export { findPersonalData, luhn, type PersonalDataKind } from './personal-data';
export { valueMinorUnits, isKnownCurrency } from './value';
