/**
 * What the seeded Sites have besides their settings (db/seed/sites/<handle>.json, read by
 * db/seed.ts): their market ids, the copy language of a locale, and their notification flows.
 */
export type MarketId = 'se' | 'de' | 'us';

export type FlowDef = { handle: string; channel: 'email' | 'sms'; enabled: boolean; isDefault: boolean };

const BACK_IN_STOCK: FlowDef = { handle: 'back-in-stock-email', channel: 'email', enabled: true, isDefault: true };

export const SEED_FLOWS = {
  demo: [BACK_IN_STOCK, { handle: 'sms-legacy', channel: 'sms', enabled: false, isDefault: false }],
  outlet: [BACK_IN_STOCK],
} satisfies Record<string, FlowDef[]>;

/** Locale → which copy language it shows. */
export function copyLanguage(locale: string): 'en' | 'sv' | 'de' {
  if (locale.startsWith('sv')) return 'sv';
  if (locale.startsWith('de')) return 'de';
  return 'en';
}
