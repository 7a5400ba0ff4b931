'use client';

import { Label, ListBox, Select } from '@heroui/react';
import type { ComponentProps } from 'react';
import { countryIds, countryPresets } from '../presets';

/** The country presets as a select: a named form field (patient outcomes) or controlled (national impact). */
export function CountrySelect({ label, ...selectProps }: { label: string } & Omit<ComponentProps<typeof Select>, 'children'>) {
  return (
    <Select className="w-64" variant="secondary" {...selectProps}>
      <Label>{label}</Label>
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
  );
}
