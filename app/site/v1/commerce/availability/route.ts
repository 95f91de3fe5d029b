import { endpoint, route } from '@/lib/http/route';
import { ok } from '@/lib/http/reply';
import { getAvailabilityBatch } from '@/lib/contract/operations/reads';
import { AvailabilityBatch } from '@/lib/contract/catalog';
import { readAvailabilityBatch } from '@/lib/commerce/availability';
import { db } from '@/lib/db';

// GET /site/v1/commerce/availability?variantIds=a,b,c
export const { GET, HEAD, POST, PUT, PATCH, DELETE } = endpoint({
  GET: route(getAvailabilityBatch, async ({ site, query }) =>
    ok(AvailabilityBatch.parse(await readAvailabilityBatch(db(), site, query.variantIds)), { cache: 'availability' }),
  ),
});
