'use client';

import { useState } from 'react';
import { ChoiceSelect } from './choice-select';

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
  // Like a native select: a default that is not among the options shows (and sends) the first option.
  const [value, setValue] = useState(
    options.some(([optionValue]) => optionValue === defaultValue) ? defaultValue : (options[0]?.[0] ?? ''),
  );
  return (
    <>
      <input type="hidden" name={name} value={value} />
      <ChoiceSelect label={label} value={value} onChange={setValue} options={options} description={description} className={className} />
    </>
  );
}
