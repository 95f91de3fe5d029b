'use client';
import { createContext, useContext, useState, type ReactNode } from 'react';

type Selection = { options: Record<string, string>; setOptions: (next: Record<string, string>) => void };
const SelectionContext = createContext<Selection | null>(null);

/** The picked option values, shared by the picker and the gallery of one product page. */
export function SelectionProvider({ initial, children }: { initial: Record<string, string>; children: ReactNode }) {
  const [options, setOptions] = useState(initial);
  return <SelectionContext.Provider value={{ options, setOptions }}>{children}</SelectionContext.Provider>;
}

export function useSelection(): Selection {
  const selection = useContext(SelectionContext);
  if (!selection) throw new Error('useSelection outside SelectionProvider');
  return selection;
}
