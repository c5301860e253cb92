/**
 * A long list with only the rows in (and just around) the view in the DOM
 * (@tanstack/react-virtual, rows measured as drawn). Its own chunk: the
 * cluster panel loads it only for a cluster of many rows, so the first
 * screen does not carry the virtualizer (~10 KB gzipped).
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { useRef, type ReactNode } from "react";

interface VirtualListProps {
  count: number;
  keyOf: (index: number) => string;
  /** A row's height before it is measured. */
  estimatePx: number;
  row: (index: number) => ReactNode;
}

export function VirtualList({ count, keyOf, estimatePx, row }: VirtualListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => estimatePx,
    overscan: 3,
    getItemKey: keyOf,
  });
  return (
    <div ref={scroller} className="cluster-nodes-scroll">
      <ol className="cluster-nodes" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => (
          <li
            key={item.key}
            data-index={item.index}
            ref={virtualizer.measureElement}
            style={{ transform: `translateY(${item.start}px)` }}
          >
            {row(item.index)}
          </li>
        ))}
      </ol>
    </div>
  );
}

interface VirtualTableProps {
  /** The scroll box's accessible name (a region, as TableScroll's). */
  label: string;
  className: string;
  /** The caption and the header row. */
  head: ReactNode;
  columns: number;
  count: number;
  keyOf: (index: number) => string;
  estimatePx: number;
  /** Row `index`'s cells. */
  cells: (index: number) => ReactNode;
}

/**
 * What is drawn before the box is measured (a server render, the first frame): a few rows, so the first frame is
 * light; the box's real height brings the rest a frame later.
 */
const FIRST_RECT = { width: 1280, height: 400 };

/**
 * A long table with only the rows in (and just around) its scroll box in the DOM, still a table: the header
 * row, row headers and aria-rowcount/aria-rowindex tell assistive technology where a row sits among them all.
 * Issue 19: drawn whole, the Accuracy view's 592 speed rows cost one 82–150 ms task, 69–139 ms of it style and
 * layout (Long Animation Frame timing; React's own work was 5–7 ms slices), which slicing the render cannot
 * split. What is lost: find in page sees only the drawn rows; the box scrolls by keyboard (it takes focus).
 */
export function VirtualTable({ label, className, head, columns, count, keyOf, estimatePx, cells }: VirtualTableProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => estimatePx,
    // The caption and header sit above the first row: a few rows more each side cover them.
    overscan: 4,
    getItemKey: keyOf,
    initialRect: FIRST_RECT,
  });
  const items = virtualizer.getVirtualItems();
  const above = items[0]?.start ?? 0;
  const below = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  // Empty rows stand for the rows not drawn, so the box scrolls as far as the whole table would.
  const spacer = (px: number) =>
    px > 0 ? (
      <tr aria-hidden="true" className="virtual-spacer">
        <td colSpan={columns} style={{ height: px }} />
      </tr>
    ) : null;
  return (
    <div ref={scroller} className="table-scroll table-scroll-rows" role="region" aria-label={label} tabIndex={0}>
      <table className={className} aria-rowcount={count + 1}>
        {head}
        <tbody>
          {spacer(above)}
          {items.map((item) => (
            <tr key={item.key} data-index={item.index} ref={virtualizer.measureElement} aria-rowindex={item.index + 2}>
              {cells(item.index)}
            </tr>
          ))}
          {spacer(below)}
        </tbody>
      </table>
    </div>
  );
}
