'use client';

import { type KeyboardEvent, useRef, useState } from 'react';
import type { CalendarDay, DayStatus } from '../server/get-patient-profile';
import { formatDate } from '@/lib/format';

/**
 * Okabe–Ito colours, told apart with every common colour-vision deficiency: blue for taken, vermillion for
 * missed; a skipped dose is also a different shape (a circle), and a day without a record an outline, so no
 * status rests on colour alone.
 */
const statusStyle: Record<DayStatus, string> = {
  taken: 'bg-[#0072B2] rounded-[2px]',
  missed: 'bg-[#D55E00] rounded-[2px]',
  skipped: 'bg-[#E69F00] rounded-full',
  none: 'border border-[#8a8f98] rounded-[2px]',
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

const dayMilliseconds = 86_400_000;
const monthLabel = new Intl.DateTimeFormat('en-GB', { month: 'short', timeZone: 'UTC' });

/** The index of the same day of the month `months` away (the month's last day when it is shorter). */
function sameDayOfMonth(days: CalendarDay[], index: number, months: number): number {
  const [first] = days;
  const from = days[index];
  if (first === undefined || from === undefined) return index;
  const date = new Date(`${from.date}T00:00:00Z`);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const target = Date.UTC(year, month, Math.min(date.getUTCDate(), lastDay));
  return Math.round((target - new Date(`${first.date}T00:00:00Z`).getTime()) / dayMilliseconds);
}

/**
 * The year of doses as a calendar grid — the page's one dose calendar: one column per week, one row per
 * weekday, months named above. A grid in the ARIA sense: one Tab stop, arrow keys move by day (up/down) and
 * week (left/right), Page Up/Page Down by month, Home/End to the first/last day.
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
    else if (event.key === 'PageUp') move(sameDayOfMonth(days, active, -1));
    else if (event.key === 'PageDown') move(sameDayOfMonth(days, active, 1));
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(days.length - 1);
    else return;
    event.preventDefault();
  };
  const activeDay = days[active];
  // A month's name above the week its first day falls in (the first week too, for the month the grid opens in).
  const monthStarts = Array.from({ length: weeks }, (_, column) => {
    for (let row = 0; row < 7; row += 1) {
      const day = days[column * 7 + row - offset];
      if (day !== undefined && (day.date.endsWith('-01') || (column === 0 && row === offset))) {
        return monthLabel.format(new Date(`${day.date}T00:00:00Z`));
      }
    }
    return null;
  });

  return (
    <div className="flex flex-col gap-2">
      <div className="overflow-x-auto pb-2">
        <div aria-hidden="true" className="flex gap-[3px] pl-[calc(2.25rem+3px)] text-xs text-muted">
          {monthStarts.map((name, column) => (
            <div key={column} className="relative h-4 w-3 shrink-0">
              {name === null ? null : <span className="absolute left-0 top-0 whitespace-nowrap">{name}</span>}
            </div>
          ))}
        </div>
        <div role="grid" aria-label={label} className="inline-flex flex-col gap-[3px]" onKeyDown={onKeyDown}>
          {weekdays.map((weekday, row) => (
            <div role="row" key={weekday} className="flex items-center gap-[3px]">
              <div role="rowheader" className="w-9 shrink-0 text-xs text-muted">
                {weekday}
              </div>
              {Array.from({ length: weeks }, (_, column) => {
                const index = column * 7 + row - offset;
                const day = days[index];
                if (day === undefined) return <div role="gridcell" key={column} className="size-3 shrink-0" />;
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
                    className={`size-3 shrink-0 outline-offset-1 focus-visible:outline-2 focus-visible:outline-accent ${statusStyle[day.status]}`}
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
            <span className={`inline-block size-3 ${statusStyle[status]}`} aria-hidden="true" />
            {statusWords[status]}
          </li>
        ))}
      </ul>
    </div>
  );
}
