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
