/**
 * A table wider than a narrow screen scrolls inside its own box (the panel
 * clips what overflows it), and the box takes keyboard focus so it can be
 * scrolled without a pointer.
 */
export function TableScroll({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
