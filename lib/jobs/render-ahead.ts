import 'server-only';
import { env, type Env } from '@/lib/env';
import { catalogChangesSeen } from '@/lib/platform/cache/seen-versions';
import { LOOK_EVERY_MS, renderAheadRunner } from '@/lib/storefront/render-ahead';
import type { Job } from './types';

/** Without a catalog change seen by a request here, how often the timer still looks (changes made elsewhere). */
const IDLE_LOOK_MS = 30_000;

/**
 * Whether this server renders product pages ahead on its timer. PAGE_RENDER_AHEAD decides when
 * set; unset, only a production server does: `next dev` recompiles as it renders, so rendering
 * the whole catalog ahead there cost a developer's machine a gigabyte and half a core for pages
 * nobody asked for. A pass asked for by hand (`npm run job`, the cron route) is not this.
 */
export function rendersAheadOnTimer(settings: Pick<Env, 'PAGE_STORE' | 'PAGE_RENDER_AHEAD' | 'NODE_ENV'>): boolean {
  if (settings.PAGE_STORE === 'off') return false;
  if (settings.PAGE_RENDER_AHEAD !== undefined) return settings.PAGE_RENDER_AHEAD === 'on';
  return settings.NODE_ENV === 'production';
}

/**
 * Product pages rendered and kept before shoppers ask (lib/storefront/render-ahead.ts). On a
 * timer it looks at the database when a request here saw a new catalog version, else every
 * IDLE_LOOK_MS.
 */
export const renderAheadJob: Job = {
  name: 'render-ahead',
  about: 'render product pages a catalog change made stale, before shoppers ask',
  everyMs: () => (rendersAheadOnTimer(env()) ? LOOK_EVERY_MS : null),
  wake: { moved: catalogChangesSeen, idleEveryMs: () => IDLE_LOOK_MS },
  start: () => ({ ...renderAheadRunner(), close: () => {} }),
};
