import { endpoint, route } from '@/lib/api/route';
import { ok } from '@/lib/api/reply';
import { getAvailability } from '@/lib/contract/operations/reads';
import { Availability } from '@/lib/contract/catalog';
import { readVariantAvailability } from '@/lib/commerce/availability';
import { db } from '@/lib/db';

export const dynamic = 'force-dynamic';

/** The answer without its timestamp: its ETag (weak) stays the same while the status does, so If-None-Match can match. */
const Status = Availability.omit({ asOf: true });

// GET /site/v1/commerce/availability/{variantId}
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  GET: route(getAvailability, async ({ site, params }) =>
    ok(await readVariantAvailability(db(), site, params.variantId), {
      schema: Status,
      stamp: { asOf: new Date().toISOString() },
      cache: 'availability',
    }),
  ),
});
