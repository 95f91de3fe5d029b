import { endpoint, route } from '@/lib/api/route';
import { ok } from '@/lib/api/reply';
import { getSite } from '@/lib/contract/operations/reads';
import { Site } from '@/lib/contract/catalog';
import { readSite } from '@/lib/commerce/catalog';
import { db } from '@/lib/db';

export const dynamic = 'force-dynamic';

// GET /site/v1/site
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  GET: route(getSite, async ({ site, query }) => {
    const body = await readSite(db(), site, query);
    return ok(body, { schema: Site, cache: 'site', contentLanguage: body.locale });
  }),
});
