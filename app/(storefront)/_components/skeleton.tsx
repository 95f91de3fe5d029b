const HEIGHTS = { short: 'skeleton-short', medium: 'skeleton-medium', tall: 'skeleton-tall' } as const;

/**
 * A placeholder while a section's API read is in flight (the page around it is already there).
 * Heights are classes: the Content-Security-Policy allows no style="" attributes.
 */
export function Skeleton({ label, size = 'short' }: { label: string; size?: keyof typeof HEIGHTS }) {
  return (
    <div aria-busy="true">
      <span className="visually-hidden">{label}</span>
      <div className={`skeleton ${HEIGHTS[size]}`} />
    </div>
  );
}
