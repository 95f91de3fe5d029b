import type { Dictionary } from '../_lib/i18n';
import { ShopLink } from './shop-link';

type Props = {
  path: string;
  cursor?: string;
  nextCursor: string | null;
  t: Dictionary;
  /** The URL of a page of the list, when it carries more than the cursor (search, sort, filters). */
  hrefFor?: (cursor?: string) => string;
};

/** Cursors are opaque and only go forward: "first page" and "next page". */
export function Pagination({
  path,
  cursor,
  nextCursor,
  t,
  hrefFor = (c) => (c ? `${path}?cursor=${encodeURIComponent(c)}` : path),
}: Props) {
  if (!cursor && !nextCursor) return null;
  return (
    <nav className="pagination" aria-label={t.pagination}>
      {cursor ? (
        <ShopLink fullLoad={false} className="btn btn-secondary" href={hrefFor()}>
          {t.previousPage}
        </ShopLink>
      ) : null}
      {nextCursor ? (
        <ShopLink fullLoad={false} className="btn btn-secondary" href={hrefFor(nextCursor)} rel="next">
          {t.nextPage}
        </ShopLink>
      ) : null}
    </nav>
  );
}
