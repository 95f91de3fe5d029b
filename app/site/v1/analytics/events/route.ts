import { endpoint, route } from '@/lib/api/route';
import { accepted } from '@/lib/api/reply';
import { submitAnalyticsEvents } from '@/lib/contract/operations/analytics';
import { AnalyticsReceipt } from '@/lib/contract/analytics';
import { recordAnalyticsEvents } from '@/lib/commerce/analytics';
import { db } from '@/lib/db';

export const dynamic = 'force-dynamic';

// POST /site/v1/analytics/events
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  POST: route(submitAnalyticsEvents, async ({ site, body }) => {
    const receipt = await recordAnalyticsEvents(db(), site, body.events);
    return accepted(AnalyticsReceipt.parse(receipt));
  }),
});
