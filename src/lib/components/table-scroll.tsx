'use client';

/**
 * The one container for a table that may be wider than the screen: it scrolls sideways, takes keyboard
 * focus so the arrow keys scroll it (WCAG 2.1.1), and while its table is wider than it says so in words
 * ("Scroll sideways for more columns") with a shadow on the side that has more, so a phone user knows
 * the columns they cannot see exist.
 */
import { type ReactNode, useEffect, useRef, useState } from 'react';

type Overflow = { left: boolean; right: boolean };

export function TableScroll({
  label,
  children,
  className,
  testId,
}: {
  label: string;
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  const region = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState<Overflow>({ left: false, right: false });
  useEffect(() => {
    const element = region.current;
    if (element === null) return;
    const measure = () => {
      // A pixel of slack: sub-pixel widths would otherwise show the hint on a table that fits.
      const hidden = element.scrollWidth - element.clientWidth > 1;
      const left = hidden && element.scrollLeft > 1;
      const right = hidden && element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setOverflow((current) => (current.left === left && current.right === right ? current : { left, right }));
    };
    // Measured in the next frame, where the browser lays the page out anyway: measuring here would force a layout
    // of the whole page in the middle of hydration (decision 054). The observer then follows size changes.
    const frame = requestAnimationFrame(measure);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    element.addEventListener('scroll', measure, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
      element.removeEventListener('scroll', measure);
    };
  }, []);
  const scrolls = overflow.left || overflow.right;
  const shadow = [
    overflow.left ? 'inset 12px 0 8px -8px rgb(0 0 0 / 0.25)' : '',
    overflow.right ? 'inset -12px 0 8px -8px rgb(0 0 0 / 0.25)' : '',
  ]
    .filter(Boolean)
    .join(', ');
  return (
    <div className={className} data-testid={testId}>
      {scrolls ? (
        <p className="mb-1 text-xs text-muted" data-testid="table-scroll-hint">
          Scroll sideways for more columns <span aria-hidden="true">{overflow.right ? '→' : '←'}</span>
        </p>
      ) : null}
      <div
        ref={region}
        role="region"
        aria-label={scrolls ? `${label} (scrolls sideways)` : label}
        tabIndex={0}
        data-testid="table-scroll"
        // Relative, so an absolutely placed child (a header's sr-only text) is clipped here too: otherwise it sits
        // where the table would reach and widens the page (the trial's participants table did, by 30 px at 390).
        className="relative overflow-x-auto rounded-sm focus-visible:outline-2 focus-visible:outline-accent"
        style={shadow === '' ? undefined : { boxShadow: shadow }}
      >
        {children}
      </div>
    </div>
  );
}
