import { fetchAvailabilityBatch } from '@/lib/site-client';
import { MAX_AVAILABILITY_BATCH } from '@/lib/contract/operations/reads';
import { fromError, json, refusal } from '../../_lib/shop-endpoints';

const VARIANT_ID = /^[A-Za-z0-9_-]{1,80}$/;

// GET /shop-api/availability?variantIds=a,b — the product page polls this while it is open.
export async function GET(req: Request): Promise<Response> {
  const ids = (new URL(req.url).searchParams.get('variantIds') ?? '').split(',').filter(Boolean);
  if (ids.length === 0 || ids.length > MAX_AVAILABILITY_BATCH || !ids.every((id) => VARIANT_ID.test(id)))
    return refusal(400, 'validation_failed', `Name 1–${MAX_AVAILABILITY_BATCH} variant ids, comma-separated.`);
  try {
    return json(await fetchAvailabilityBatch(ids));
  } catch (error) {
    return fromError(error);
  }
}
