'use client';

import { Description, Label, ListBox, Select } from '@heroui/react';

/** A list entry's key cannot be empty: this one stands for "no value". */
const EMPTY_KEY = '__empty__';
const toKey = (value: string) => (value === '' ? EMPTY_KEY : value);

/**
 * The product's one select: a labelled HeroUI select over [value, text] pairs, controlled by its owner (a value
 * of '' is allowed and means "none", as a native select's empty option would).
 */
export function ChoiceSelect({
  label,
  value,
  onChange,
  options,
  description,
  className = 'w-56',
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly (readonly [string, string])[];
  description?: string;
  className?: string;
}) {
  return (
    <Select
      className={className}
      variant="secondary"
      value={toKey(value)}
      onChange={(key) => {
        if (key !== null) onChange(key === EMPTY_KEY ? '' : String(key));
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
  );
}
