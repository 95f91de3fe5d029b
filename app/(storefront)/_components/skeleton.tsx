/** A placeholder while a section's API read is in flight (the page around it is already there). */
export function Skeleton({ label, height = 120 }: { label: string; height?: number }) {
  return (
    <div aria-busy="true">
      <span className="visually-hidden">{label}</span>
      <div className="skeleton" style={{ height }} />
    </div>
  );
}
