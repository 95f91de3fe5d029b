import { suggestAddresses } from '@/lib/site-client';
import { crossSite, fromError, json, refusal, sameOrigin } from '../../../../_lib/shop-endpoints';

// GET /shop-api/checkout/{id}/address-suggestions?q= — the address field's suggestions as the shopper types.
export async function GET(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  if (!sameOrigin(req)) return crossSite();
  const { id } = await ctx.params;
  const q = (new URL(req.url).searchParams.get('q') ?? '').trim();
  if (!/^cs_[A-Za-z0-9]{1,80}$/.test(id)) return refusal(404, 'not_found', 'No such checkout session.');
  if (q.length < 3 || q.length > 100) return json({ data: [] });
  try {
    return json(await suggestAddresses(id, q));
  } catch (error) {
    return fromError(error);
  }
}
