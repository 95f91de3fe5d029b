import 'server-only';
import { env } from '@/lib/env';
import { LOOK_EVERY_MS, renderAheadRunner } from '@/lib/storefront-render-ahead';
import type { Job } from './types';

/** Product pages rendered and kept before shoppers ask (lib/storefront-render-ahead.ts). */
export const renderAheadJob: Job = {
  name: 'render-ahead',
  about: 'render product pages a catalog change made stale, before shoppers ask',
  everyMs: () => (env().PAGE_STORE === 'off' || env().PAGE_RENDER_AHEAD === 'off' ? null : LOOK_EVERY_MS),
  start: () => ({ ...renderAheadRunner(), close: () => {} }),
};
