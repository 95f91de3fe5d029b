import { endpoint, route } from '@/lib/http/route';
import { ok } from '@/lib/http/reply';
import { getAvailability } from '@/lib/contract/operations/reads';
import { Availability } from '@/lib/contract/catalog';
import { readVariantAvailability } from '@/lib/commerce/availability';
import { db } from '@/lib/db';

export const dynamic = 'force-dynamic';

// GET /site/v1/commerce/availability/{variantId}
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  GET: route(getAvailability, async ({ site, params }) =>
    ok(Availability.parse(await readVariantAvailability(db(), site, params.variantId)), { cache: 'availability' }),
  ),
});
