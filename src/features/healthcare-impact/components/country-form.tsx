'use client';

import { Button } from '@heroui/react';
import type { PeriodQuery } from '@/lib/period-query';
import type { CountryId } from '../presets';
import { CountrySelect } from './country-select';

/** The country preset as `?country=…` (a GET form: the address can be shared; the period is kept). */
export function CountryForm({ path, country, periodQuery }: { path: string; country: CountryId; periodQuery: PeriodQuery }) {
  return (
    <form method="get" action={path} className="flex flex-wrap items-end gap-3" aria-label="Choose the country preset">
      {Object.entries(periodQuery).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <CountrySelect name="country" defaultValue={country} label="Country preset (baseline adherence, event rates, relative risks)" />
      <Button type="submit">Show</Button>
    </form>
  );
}
