import Link from 'next/link';
import type { Dictionary } from '../_lib/i18n';

/** Cursors are opaque and only go forward: "first page" and "next page". */
export function Pagination({ path, cursor, nextCursor, t }: { path: string; cursor?: string; nextCursor: string | null; t: Dictionary }) {
  if (!cursor && !nextCursor) return null;
  return (
    <nav className="pagination" aria-label={t.pagination}>
      {cursor ? <Link className="btn btn-secondary" href={path}>{t.previousPage}</Link> : null}
      {nextCursor ? (
        <Link className="btn btn-secondary" href={`${path}?cursor=${encodeURIComponent(nextCursor)}`} rel="next">{t.nextPage}</Link>
      ) : null}
    </nav>
  );
}
