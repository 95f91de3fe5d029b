/**
 * The shop's own chrome in the three languages the demo Site offers. Product and
 * collection text comes localised from the API; only labels, buttons and messages live here.
 */
import { de } from './de';
import { en } from './en';
import { sv } from './sv';
import type { Dictionary } from './types';

export type { Dictionary } from './types';

export type UiLanguage = 'en' | 'sv' | 'de';
const dictionaries: Record<UiLanguage, Dictionary> = { en, sv, de };

/** sv-SE → sv, de-AT → de; anything else falls back to English. */
export function uiLanguage(locale: string): UiLanguage {
  const lang = locale.toLowerCase().split('-')[0];
  return lang === 'sv' || lang === 'de' ? lang : 'en';
}

export function dictionary(lang: UiLanguage): Dictionary {
  return dictionaries[lang];
}

/** Fills `{name}` placeholders. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in values ? String(values[name]) : match));
}

/** Consent texts are versioned: a change of wording needs a new version, so records stay exact. */
export const CONSENT_VERSION = '2026-01';
