import { type ReactNode, useLayoutEffect, useRef, useState } from 'react';

/** What names the table: the id of its heading, or a name of its own where no heading says it. */
type TableName = { labelledBy: string; label?: never } | { label: string; labelledBy?: never };

type DataTableProps = TableName & {
  /** Classes besides `data-table`. */
  className?: string;
  /** The table's rows: its thead and tbody. */
  children: ReactNode;
};

/**
 * A table of the back office or the rider's orders, in a box that scrolls sideways when the table is wider than the
 * screen. While it does, the box is a tab stop named as the table (role="group"), so that a keyboard scrolls it too
 * (WCAG 2.1.1; axe's scrollable-region-focusable); a table that fits adds no tab stop (ADR 0036, 'Tables on a phone').
 */
export function DataTable({ labelledBy, label, className, children }: DataTableProps) {
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);

  // Measured before the first paint, and again whenever the box or the table changes size (a turned phone, new rows).
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);

  const name = labelledBy === undefined ? { 'aria-label': label } : { 'aria-labelledby': labelledBy };
  return (
    <div ref={box} className="table-scroll" {...(scrolls ? { role: 'group', tabIndex: 0, ...name } : {})}>
      <table className={className === undefined ? 'data-table' : `data-table ${className}`} {...name}>
        {children}
      </table>
    </div>
  );
}
