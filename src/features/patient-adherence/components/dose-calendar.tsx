'use client';

import { type KeyboardEvent, useRef, useState } from 'react';
import type { CalendarDay, DayStatus } from '../server/get-patient-profile';
import { formatDate } from '@/lib/format';

const statusStyle: Record<DayStatus, string> = {
  taken: 'bg-success',
  missed: 'bg-danger',
  skipped: 'bg-warning',
  none: 'bg-default',
};
const statusWords: Record<DayStatus, string> = { taken: 'taken', missed: 'missed', skipped: 'skipped', none: 'no dose recorded' };
const weekdays = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function describe(day: CalendarDay): string {
  const doses = day.scheduledDoses > 1 ? ` (${day.takenDoses} of ${day.scheduledDoses} doses taken)` : '';
  return `${formatDate(day.date)}: ${statusWords[day.status]}${doses}`;
}

/** Monday = 0 of a calendar date. */
function weekdayOf(iso: string): number {
  return (new Date(`${iso}T00:00:00Z`).getUTCDay() + 6) % 7;
}

/**
 * The year of doses as a heatmap grid: one column per week, one row per weekday. A grid in the ARIA sense:
 * one Tab stop, arrow keys move by day (up/down) and week (left/right), Home/End to the first/last day.
 */
export function DoseCalendar({ days, label }: { days: CalendarDay[]; label: string }) {
  const [active, setActive] = useState(Math.max(0, days.length - 1));
  const cells = useRef(new Map<number, HTMLDivElement>());
  const [first] = days;
  if (first === undefined) return null;
  const offset = weekdayOf(first.date);
  const weeks = Math.ceil((offset + days.length) / 7);

  const move = (next: number) => {
    const clamped = Math.max(0, Math.min(days.length - 1, next));
    setActive(clamped);
    cells.current.get(clamped)?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const steps: Record<string, number> = { ArrowUp: -1, ArrowDown: 1, ArrowLeft: -7, ArrowRight: 7 };
    const step = steps[event.key];
    if (step !== undefined) move(active + step);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(days.length - 1);
    else return;
    event.preventDefault();
  };
  const activeDay = days[active];

  return (
    <div className="flex flex-col gap-2">
      <div className="overflow-x-auto pb-2">
        <div role="grid" aria-label={label} className="inline-flex flex-col gap-[3px]" onKeyDown={onKeyDown}>
          {weekdays.map((weekday, row) => (
            <div role="row" key={weekday} className="flex items-center gap-[3px]">
              <div role="rowheader" className="w-9 text-xs text-muted">
                {weekday}
              </div>
              {Array.from({ length: weeks }, (_, column) => {
                const index = column * 7 + row - offset;
                const day = days[index];
                if (day === undefined) return <div role="gridcell" key={column} className="size-3" />;
                return (
                  <div
                    role="gridcell"
                    key={column}
                    ref={(element) => {
                      if (element) cells.current.set(index, element);
                      else cells.current.delete(index);
                    }}
                    tabIndex={index === active ? 0 : -1}
                    aria-label={describe(day)}
                    title={describe(day)}
                    onClick={() => setActive(index)}
                    onFocus={() => setActive(index)}
                    data-status={day.status}
                    className={`size-3 rounded-[2px] outline-offset-1 focus-visible:outline-2 focus-visible:outline-accent ${statusStyle[day.status]}`}
                  />
                );
              })}
            </div>
          ))}
        </div>
      </div>
      <p className="text-sm">{activeDay ? describe(activeDay) : null}</p>
      <ul className="flex flex-wrap gap-4 text-sm" aria-label="Legend">
        {(Object.keys(statusStyle) as DayStatus[]).map((status) => (
          <li key={status} className="flex items-center gap-2">
            <span className={`inline-block size-3 rounded-[2px] ${statusStyle[status]}`} aria-hidden="true" />
            {statusWords[status]}
          </li>
        ))}
      </ul>
    </div>
  );
}
