/** Shown while a page's API reads are in flight. */
export default function Loading() {
  return (
    <div aria-busy="true" aria-live="polite">
      <span className="visually-hidden">Loading…</span>
      <div className="skeleton" style={{ height: 40, width: '40%', marginBottom: 28 }} />
      <ul className="product-grid" aria-hidden="true">
        {Array.from({ length: 8 }, (_, i) => (
          <li key={i}>
            <div className="skeleton" style={{ aspectRatio: '1', marginBottom: 10 }} />
            <div className="skeleton" style={{ height: 16, width: '70%', marginBottom: 6 }} />
            <div className="skeleton" style={{ height: 16, width: '35%' }} />
          </li>
        ))}
      </ul>
    </div>
  );
}
