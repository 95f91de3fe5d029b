'use client';
import { createContext, useContext, useState, useSyncExternalStore, type ReactNode } from 'react';

type Selection = { options: Record<string, string>; setOptions: (next: Record<string, string>) => void };
const SelectionContext = createContext<Selection | null>(null);

type Props = {
  initial: Record<string, string>;
  /** The product's variants, for `?variant=`. */
  variants: { id: string; options: Record<string, string> }[];
  children: ReactNode;
};

/** Only the query the page was opened with counts; the picker rewrites it as the shopper picks. */
const noUpdates = () => () => {};
const browserQuery = () => window.location.search;
const noQuery = () => '';

/** The picked option values, shared by the picker and the gallery of one product page. */
export function SelectionProvider({ initial, variants, children }: Props) {
  const [picked, setPicked] = useState<Record<string, string> | null>(null);
  // `?variant=` is read in the browser, after hydration: the HTML may come from the page
  // cache, whose key has no query string (one copy serves every `?variant=`), and reading
  // it with useSearchParams would make the page render on the client instead.
  const query = useSyncExternalStore(noUpdates, browserQuery, noQuery);
  const wanted = new URLSearchParams(query).get('variant');
  const fromUrl = wanted ? variants.find((v) => v.id === wanted)?.options : undefined;
  const options = picked ?? fromUrl ?? initial;
  return <SelectionContext.Provider value={{ options, setOptions: setPicked }}>{children}</SelectionContext.Provider>;
}

export function useSelection(): Selection {
  const selection = useContext(SelectionContext);
  if (!selection) throw new Error('useSelection outside SelectionProvider');
  return selection;
}
