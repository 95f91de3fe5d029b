'use client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { Dictionary } from '../_lib/i18n';
import { I18nProvider } from './i18n-context';

export function Providers({ dictionary, children }: { dictionary: Dictionary; children: ReactNode }) {
  // One client per browser tab; created lazily so the server never shares one between shoppers.
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 15_000, retry: 1 } } }));
  return (
    <QueryClientProvider client={client}>
      <I18nProvider dictionary={dictionary}>{children}</I18nProvider>
    </QueryClientProvider>
  );
}
