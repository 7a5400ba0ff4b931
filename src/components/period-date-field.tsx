'use client';

import { DateField, FieldError, I18nProvider, Label } from '@heroui/react';
import { parseDate, type CalendarDate } from '@internationalized/date';

/** An ISO day ("2025-03-01") as a calendar date, or undefined when there is none or it is not a real day. */
function calendarDate(iso: string | undefined): CalendarDate | undefined {
  if (iso === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(iso)) return undefined;
  try {
    return parseDate(iso);
  } catch {
    return undefined;
  }
}

/**
 * A HeroUI date field that submits with a plain GET form under `name`, as `<input type="date">` did: React Aria
 * sends the chosen day as an ISO date ("2025-03-01") in a hidden input, and an empty value until every segment
 * is filled. Day, month and year are typed segment by segment (British order, as every date on the pages
 * reads), and Enter sends the form; a day after `max` stops the form and the error names the field.
 */
export function PeriodDateField({
  name,
  label,
  defaultValue,
  max,
  className = 'w-40',
}: {
  name: string;
  label: string;
  /** ISO day shown at first (the custom period's own end), if any. */
  defaultValue?: string;
  /** Latest ISO day allowed (the last day of data). */
  max?: string;
  className?: string;
}) {
  return (
    <I18nProvider locale="en-GB">
      <DateField
        name={name}
        className={className}
        defaultValue={calendarDate(defaultValue)}
        maxValue={calendarDate(max)}
        granularity="day"
        // Enter sends the form, as it does from a native date input (a segment is not an input, so the browser would not).
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          (event.target as HTMLElement).closest('form')?.requestSubmit();
        }}
      >
        <Label>{label}</Label>
        <DateField.Group variant="secondary">
          <DateField.Input>{(segment) => <DateField.Segment segment={segment} />}</DateField.Input>
        </DateField.Group>
        <FieldError>{(validation) => `${label}: ${validation.validationErrors.join(' ')}`}</FieldError>
      </DateField>
    </I18nProvider>
  );
}
