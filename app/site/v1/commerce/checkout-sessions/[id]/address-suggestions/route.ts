import { endpoint, route } from '@/lib/api/route';
import { ok } from '@/lib/api/reply';
import * as op from '@/lib/contract/operations/checkout';
import { AddressSuggestions } from '@/lib/contract/checkout';
import { suggestAddresses } from '@/lib/commerce/checkout';
import { db } from '@/lib/db';

export const dynamic = 'force-dynamic';

// GET /site/v1/commerce/checkout-sessions/{id}/address-suggestions?q=
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = endpoint({
  GET: route(op.suggestCheckoutAddresses, async ({ site, params, query }) => {
    const data = await suggestAddresses(db(), site, params.id, query.q);
    return ok(AddressSuggestions.parse({ data }), { cache: 'session' });
  }),
});
