import { endpoint, route } from '@/lib/api/route';
import { ok } from '@/lib/api/reply';
import { getAvailabilityBatch } from '@/lib/contract/operations/reads';
import { AvailabilityBatch } from '@/lib/contract/catalog';
import { readAvailabilityStatuses } from '@/lib/commerce/availability';
import { db } from '@/lib/db';

export const dynamic = 'force-dynamic';

/** The batch without its timestamp: shared by every request for the same ids at one catalog version. */
const Statuses = AvailabilityBatch.omit({ asOf: true });

// GET /site/v1/commerce/availability?variantIds=a,b,c
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  GET: route(getAvailabilityBatch, async ({ site, query }) =>
    ok(await readAvailabilityStatuses(db(), site, query.variantIds), {
      schema: Statuses,
      stamp: { asOf: new Date().toISOString() },
      cache: 'availability',
    }),
  ),
});
