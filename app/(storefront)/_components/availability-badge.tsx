import type { AvailabilityStatus } from '@/lib/contract/common';
import type { Dictionary } from '../_lib/i18n';

export function availabilityLabel(
  status: AvailabilityStatus,
  t: Pick<Dictionary, 'inStock' | 'lowStock' | 'outOfStock' | 'preorder'>,
): string {
  return { in_stock: t.inStock, low_stock: t.lowStock, out_of_stock: t.outOfStock, preorder: t.preorder }[status];
}

export function AvailabilityBadge({ status, t }: { status: AvailabilityStatus; t: Dictionary }) {
  return <span className={`badge badge-${status}`}>{availabilityLabel(status, t)}</span>;
}
