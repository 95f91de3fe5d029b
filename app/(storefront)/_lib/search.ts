import { MAX_OPTION_FILTERS, PRODUCT_SORTS, type ProductSort } from '@/lib/contract/operations/reads';
import type { ProductFacets } from '@/lib/contract/catalog';

/**
 * The state of a product list page (the search page, a collection) as the URL holds it:
 * `q`, `sort`, `available=true`, `priceMin`/`priceMax`, repeatable `option=Name:Value`, and
 * the page's `cursor`. Everything is in the URL, so a list works without JavaScript (the
 * filter form is a GET form) and every view can be linked to.
 */
export type ListState = {
  q?: string;
  sort?: ProductSort;
  available: boolean;
  priceMin?: string;
  priceMax?: string;
  options: string[];
  cursor?: string;
};

/** A URL parameter of a list page; `ignored` names the ones whose values could not be used. */
export type ListParam = 'q' | 'sort' | 'available' | 'priceMin' | 'priceMax' | 'option' | 'cursor';

type Raw = Record<string, string | string[] | undefined>;

const AMOUNT = /^\d{1,12}(\.\d{1,6})?$/;
const OPTION = /^[^:]+:.+$/;
const MAX_Q = 200;
const MAX_CURSOR = 512;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `12,50` (as a Swede or a German types it) is `12.50`; blanks are no price. */
function amount(value: string | undefined): string | undefined | null {
  const text = value?.trim().replace(/\s/g, '').replace(',', '.');
  if (!text) return undefined;
  return AMOUNT.test(text) ? text : null;
}

/**
 * Reads a list page's URL. A blank field is simply absent (a GET form sends `priceMin=` for an
 * empty input); a value the API would refuse is left out and named in `ignored`, so a bad
 * link still shows a page. The API's own checks (more decimals than the currency has, a
 * minimum above the maximum, a cursor of another order) are handled where it is asked.
 */
export function readListState(raw: Raw): { state: ListState; ignored: ListParam[]; blanks: boolean } {
  const ignored: ListParam[] = [];
  const state: ListState = { available: false, options: [] };

  // Control characters (a NUL from `%00`) mean nothing to a search, and have no place in a title.
  const q = first(raw.q)
    ?.replace(/\p{Cc}+/gu, ' ')
    .trim();
  if (q) {
    if (q.length <= MAX_Q) state.q = q;
    else ignored.push('q');
  }

  const sort = first(raw.sort);
  if (sort) {
    if ((PRODUCT_SORTS as readonly string[]).includes(sort)) state.sort = sort as ProductSort;
    else ignored.push('sort');
  }

  const available = first(raw.available);
  if (available === 'true') state.available = true;
  else if (available) ignored.push('available');

  for (const key of ['priceMin', 'priceMax'] as const) {
    const value = amount(first(raw[key]));
    if (value === null) ignored.push(key);
    else if (value !== undefined) state[key] = value;
  }

  const options = raw.option === undefined ? [] : Array.isArray(raw.option) ? raw.option : [raw.option];
  for (const option of options) {
    if (!option) continue;
    if (option.length <= 200 && OPTION.test(option) && state.options.length < MAX_OPTION_FILTERS) {
      if (!state.options.includes(option)) state.options.push(option);
    } else if (!ignored.includes('option')) ignored.push('option');
  }

  const cursor = first(raw.cursor);
  if (cursor && cursor.length <= MAX_CURSOR) state.cursor = cursor;

  // The filter form sends its empty fields (`sort=&priceMin=`): the page then redirects to the tidy URL.
  const blanks = Object.entries(raw).some(
    ([key, value]) => LIST_PARAMS.has(key) && (Array.isArray(value) ? value.some((v) => v.trim() === '') : value?.trim() === ''),
  );
  return { state, ignored, blanks };
}

const LIST_PARAMS = new Set<string>(['q', 'sort', 'available', 'priceMin', 'priceMax', 'option', 'cursor']);

/** The parameter a 422's JSON pointer names (`#/query/option/1` → `option`), when it is one of a list's. */
export function paramOfPointer(pointer: string): ListParam | null {
  const name = /^#\/query\/([^/]+)/.exec(pointer)?.[1];
  return name === 'q' ||
    name === 'sort' ||
    name === 'available' ||
    name === 'priceMin' ||
    name === 'priceMax' ||
    name === 'option' ||
    name === 'cursor'
    ? name
    : null;
}

/** The state without a parameter (a refused one, or a filter the shopper removes). */
export function without(state: ListState, param: ListParam, value?: string): ListState {
  const next: ListState = { ...state, options: [...state.options], cursor: undefined };
  if (param === 'option') next.options = value === undefined ? [] : next.options.filter((o) => o !== value);
  else if (param === 'available') next.available = false;
  else next[param] = undefined;
  return next;
}

/** The URL of a list page in a state; parameters in a fixed order, so equal states are equal URLs. */
export function listHref(path: string, state: ListState): string {
  const query = new URLSearchParams();
  if (state.q) query.set('q', state.q);
  if (state.sort) query.set('sort', state.sort);
  if (state.available) query.set('available', 'true');
  if (state.priceMin) query.set('priceMin', state.priceMin);
  if (state.priceMax) query.set('priceMax', state.priceMax);
  for (const option of state.options) query.append('option', option);
  if (state.cursor) query.set('cursor', state.cursor);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** Whether the state narrows or orders the list (a collection then reads the products list). */
export function isNarrowed(state: ListState): boolean {
  return (
    state.sort !== undefined || state.available || state.priceMin !== undefined || state.priceMax !== undefined || state.options.length > 0
  );
}

/**
 * How many products the list holds in all. The API has no total, but the availability facet
 * is counted with every filter but its own: with `available=true` the list is exactly the
 * available ones, otherwise it is both.
 */
export function resultCount(state: ListState, facets: ProductFacets | undefined): number | null {
  if (!facets) return null;
  const { available, unavailable } = facets.availability;
  return state.available ? available : available + unavailable;
}

/** `Color:Sand` → `{ name: 'Color', value: 'Sand' }` (a value may hold colons; a name cannot). */
export function splitOption(option: string): { name: string; value: string } {
  const at = option.indexOf(':');
  return { name: option.slice(0, at), value: option.slice(at + 1) };
}
