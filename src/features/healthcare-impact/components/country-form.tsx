'use client';

import { Button, Label, ListBox, Select } from '@heroui/react';
import type { PeriodQuery } from '@/lib/period-query';
import { type CountryId, countryIds, countryPresets } from '../presets';

/** The country preset as `?country=…` (a GET form: the address can be shared; the period is kept). */
export function CountryForm({ path, country, periodQuery }: { path: string; country: CountryId; periodQuery: PeriodQuery }) {
  return (
    <form method="get" action={path} className="flex flex-wrap items-end gap-3" aria-label="Choose the country preset">
      {Object.entries(periodQuery).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Select name="country" defaultValue={country} className="w-64" variant="secondary">
        <Label>Country preset (baseline adherence, event rates, relative risks)</Label>
        <Select.Trigger>
          <Select.Value />
          <Select.Indicator />
        </Select.Trigger>
        <Select.Popover>
          <ListBox>
            {countryIds.map((id) => (
              <ListBox.Item key={id} id={id} textValue={countryPresets[id].name}>
                {countryPresets[id].name}
                <ListBox.ItemIndicator />
              </ListBox.Item>
            ))}
          </ListBox>
        </Select.Popover>
      </Select>
      <Button type="submit">Show</Button>
    </form>
  );
}
