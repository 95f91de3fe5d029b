import { isSiteApiError, searchProducts, type FieldError } from '@/lib/site-client';
import { crossSite, json, problem, sameOrigin } from '../../_lib/shop-endpoints';
import { formatMoney } from '../../_lib/format';
import { shop } from '../../_lib/shop';

/** Suggestions the header's search box shows at most (and by default). */
const MAX_SUGGESTIONS = 8;
const DEFAULT_SUGGESTIONS = 6;

/** What the search box draws for one product: already formatted here, in the shopper's language and currency. */
export type Suggestion = {
  handle: string;
  title: string;
  href: string;
  price: string;
  image: { url: string; width: number; height: number } | null;
};

function readQuery(params: URLSearchParams): { q: string; limit: number } | FieldError[] {
  const errors: FieldError[] = [];
  const qs = params.getAll('q');
  const q = (qs[0] ?? '').trim();
  if (qs.length !== 1) errors.push({ pointer: '#/query/q', code: qs.length === 0 ? 'required' : 'repeated', detail: 'Give one q.' });
  else if (q.length < 1 || q.length > 200)
    errors.push({ pointer: '#/query/q', code: 'length', detail: 'Give 1–200 characters to search for.' });
  const limits = params.getAll('limit');
  let limit = DEFAULT_SUGGESTIONS;
  if (limits.length > 0) {
    const value = limits.length === 1 && /^\d{1,2}$/.test(limits[0]!) ? Number(limits[0]) : NaN;
    if (value >= 1 && value <= MAX_SUGGESTIONS) limit = value;
    else errors.push({ pointer: '#/query/limit', code: 'range', detail: `Give one limit from 1 to ${MAX_SUGGESTIONS}.` });
  }
  return errors.length > 0 ? errors : { q, limit };
}

// GET /shop-api/search?q=mug&limit=6 — the header search box's suggestions as the shopper types.
// The API call is made here, with the credential; like every read the shop makes for a
// request it is charged to this shopper's read budget (see _lib/shop.ts), so one visitor
// typing fast cannot spend the storefront's budget for everyone.
export async function GET(req: Request): Promise<Response> {
  if (!sameOrigin(req)) return crossSite();
  const query = readQuery(new URL(req.url).searchParams);
  if (Array.isArray(query)) return problem('validation_failed', 'The search could not be read.', query);
  try {
    const { market, locale, t } = await shop();
    const page = await searchProducts({ market: market.id, locale, q: query.q, limit: query.limit });
    const data: Suggestion[] = page.data.map((p) => {
      const { min, max } = p.priceRange;
      return {
        handle: p.handle,
        title: p.title,
        href: `/products/${p.handle}`,
        price: `${min.amount !== max.amount ? `${t.from} ` : ''}${formatMoney(min, locale)}`,
        image: p.featuredImage ? { url: p.featuredImage.url, width: p.featuredImage.width, height: p.featuredImage.height } : null,
      };
    });
    return json({ q: query.q, data });
  } catch (error) {
    if (isSiteApiError(error, 'rate_limited'))
      return problem('rate_limited', 'Too many searches from this address; try again in a minute.');
    if (isSiteApiError(error, 'validation_failed')) return problem('validation_failed', 'The search could not be read.', error.errors);
    return problem('service_unavailable', 'Search is unavailable right now; try again.');
  }
}
