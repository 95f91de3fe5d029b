import type { Metadata, Viewport } from 'next';

/** What every shop document shares: the title pattern and the base of its absolute URLs. */
export function documentMetadata(origin: string): Metadata {
  return { title: { default: 'Shop', template: '%s' }, metadataBase: new URL(origin) };
}

export const documentViewport: Viewport = { width: 'device-width', initialScale: 1, themeColor: '#faf8f5' };
