'use client';

import { Button, buttonVariants, Label, ListBox, Select } from '@heroui/react';
import Link from 'next/link';
import type { PeriodQuery } from '@/lib/period-query';
import { patientEngagementPrefix } from '@/lib/routes';
import type { FilterOption } from '../server/get-compliance-journey';
import { ALL_FILTER_VALUE } from '@/lib/filter-values';

const JOURNEY_PATH = `${patientEngagementPrefix}compliance-journey`;

type FilterSelectProps = { name: 'persona' | 'product'; label: string; allLabel: string; options: FilterOption[]; selected: string | null };

function FilterSelect({ name, label, allLabel, options, selected }: FilterSelectProps) {
  // A value not among the options (an invalid address) shows as "All …": the page says what was wrong.
  const value = selected !== null && options.some((option) => option.value === selected) ? selected : ALL_FILTER_VALUE;
  return (
    <Select name={name} defaultValue={value} className="w-64" variant="secondary">
      <Label>{label}</Label>
      <Select.Trigger>
        <Select.Value />
        <Select.Indicator />
      </Select.Trigger>
      <Select.Popover>
        <ListBox>
          <ListBox.Item id={ALL_FILTER_VALUE} textValue={allLabel}>
            {allLabel}
            <ListBox.ItemIndicator />
          </ListBox.Item>
          {options.map((option) => (
            <ListBox.Item key={option.value} id={option.value} textValue={option.label}>
              {option.label}
              <ListBox.ItemIndicator />
            </ListBox.Item>
          ))}
        </ListBox>
      </Select.Popover>
    </Select>
  );
}

/**
 * Persona and product of the cohort, as `?persona=…&product=…` (a GET form: the address can be shared and the
 * server parses it). Nothing changes until "Show" is pressed, so choosing in a list never moves the page.
 */
export function JourneyFilterForm({
  personas,
  products,
  persona,
  product,
  periodQuery = {},
}: {
  personas: FilterOption[];
  products: FilterOption[];
  persona: string | null;
  product: string | null;
  /** The reporting period's address parameters, kept when the cohort changes. */
  periodQuery?: PeriodQuery;
}) {
  const wholeCohort = new URLSearchParams(periodQuery).toString();
  return (
    <form method="get" action={JOURNEY_PATH} className="flex flex-wrap items-end gap-3" aria-label="Choose the cohort">
      {Object.entries(periodQuery).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <FilterSelect name="persona" label="Persona" allLabel="All personas" options={personas} selected={persona} />
      <FilterSelect name="product" label="Product (first fill)" allLabel="All products" options={products} selected={product} />
      <Button type="submit">Show</Button>
      {persona !== null || product !== null ? (
        <Link href={wholeCohort === '' ? JOURNEY_PATH : `${JOURNEY_PATH}?${wholeCohort}`} className={buttonVariants({ variant: 'ghost' })}>
          Whole cohort
        </Link>
      ) : null}
    </form>
  );
}
