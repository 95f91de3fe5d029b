import 'server-only';
import { env } from '@/lib/env';
import { catalogChangesSeen } from '@/lib/platform/cache/seen-versions';
import { LOOK_EVERY_MS, renderAheadRunner } from '@/lib/storefront-render-ahead';
import type { Job } from './types';

/** Without a catalog change seen by a request here, how often the timer still looks (changes made elsewhere). */
const IDLE_LOOK_MS = 30_000;

/**
 * Product pages rendered and kept before shoppers ask (lib/storefront-render-ahead.ts). On a
 * timer it looks at the database when a request here saw a new catalog version, else every
 * IDLE_LOOK_MS.
 */
export const renderAheadJob: Job = {
  name: 'render-ahead',
  about: 'render product pages a catalog change made stale, before shoppers ask',
  everyMs: () => (env().PAGE_STORE === 'off' || env().PAGE_RENDER_AHEAD === 'off' ? null : LOOK_EVERY_MS),
  wake: { moved: catalogChangesSeen, idleEveryMs: () => IDLE_LOOK_MS },
  start: () => ({ ...renderAheadRunner(), close: () => {} }),
};
