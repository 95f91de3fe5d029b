import { dictionary, type UiLanguage } from './i18n';

const LANGS: UiLanguage[] = ['en', 'sv', 'de'];

/**
 * The consent text the shopper actually saw (sent back with the form) when it is one of
 * ours, else today's text in their language: the record must hold words we showed.
 */
export function consentTextFor(kind: 'newsletterConsent' | 'restockConsent', shown: unknown, lang: UiLanguage): string {
  const known = LANGS.map((l) => dictionary(l)[kind]);
  return typeof shown === 'string' && known.includes(shown) ? shown : dictionary(lang)[kind];
}
