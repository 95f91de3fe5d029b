'use client';
import { createContext, useContext, type ReactNode } from 'react';
import type { Dictionary } from '../_lib/i18n';

const I18n = createContext<Dictionary | null>(null);

export function I18nProvider({ dictionary, children }: { dictionary: Dictionary; children: ReactNode }) {
  return <I18n.Provider value={dictionary}>{children}</I18n.Provider>;
}

/** The chrome's strings in the shopper's language (the dictionary comes from the server). */
export function useT(): Dictionary {
  const dictionary = useContext(I18n);
  if (!dictionary) throw new Error('useT outside I18nProvider');
  return dictionary;
}
