'use client';
import { createContext, useContext, type ReactNode } from 'react';
import type { ChromeStrings } from '../_lib/i18n/islands';

/** For the two client components that get no props from a page: error.tsx and the 404 of a cached page. */
const Strings = createContext<ChromeStrings | null>(null);

export function ChromeStringsProvider({ strings, children }: { strings: ChromeStrings; children: ReactNode }) {
  return <Strings.Provider value={strings}>{children}</Strings.Provider>;
}

export function useChromeStrings(): ChromeStrings {
  const strings = useContext(Strings);
  if (!strings) throw new Error('useChromeStrings outside ChromeStringsProvider');
  return strings;
}
