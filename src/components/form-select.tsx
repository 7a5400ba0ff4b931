'use client';

import { Description, Label, ListBox, Select } from '@heroui/react';
import { useState } from 'react';

/** A list entry's key cannot be empty: this one stands for "no value" and is sent as an empty field. */
const EMPTY_KEY = '__empty__';

/**
 * A HeroUI select that submits with a plain form under `name`, as a native select would: the choice travels in
 * a hidden input (so "All …" can still send an empty value, which a list key cannot be).
 */
export function FormSelect({
  name,
  label,
  defaultValue,
  options,
  description,
  className = 'w-56',
}: {
  name: string;
  label: string;
  defaultValue: string;
  /** [value, text] pairs; a value of '' is sent as an empty field. */
  options: readonly (readonly [string, string])[];
  description?: string;
  className?: string;
}) {
  const toKey = (value: string) => (value === '' ? EMPTY_KEY : value);
  // Like a native select: a default that is not among the options shows (and sends) the first option.
  const [value, setValue] = useState(
    options.some(([optionValue]) => optionValue === defaultValue) ? defaultValue : (options[0]?.[0] ?? ''),
  );
  return (
    <>
      <input type="hidden" name={name} value={value} />
      <Select
        className={className}
        variant="secondary"
        value={toKey(value)}
        onChange={(key) => {
          if (key !== null) setValue(key === EMPTY_KEY ? '' : String(key));
        }}
      >
        <Label>{label}</Label>
        <Select.Trigger>
          <Select.Value />
          <Select.Indicator />
        </Select.Trigger>
        {description === undefined ? null : <Description>{description}</Description>}
        <Select.Popover>
          <ListBox>
            {options.map(([optionValue, text]) => (
              <ListBox.Item key={toKey(optionValue)} id={toKey(optionValue)} textValue={text}>
                {text}
                <ListBox.ItemIndicator />
              </ListBox.Item>
            ))}
          </ListBox>
        </Select.Popover>
      </Select>
    </>
  );
}
