'use client';

import { Button, buttonVariants, Label, ListBox, Select } from '@heroui/react';
import Link from 'next/link';
import type { PeriodQuery } from '@/lib/period-query';
import { ALL_FILTER_VALUE } from '@/lib/filter-values';

type Option = { value: string; label: string };

function FilterSelect({
  name,
  label,
  allLabel,
  options,
  selected,
}: {
  name: string;
  label: string;
  allLabel: string;
  options: Option[];
  selected: string | null;
}) {
  const value = selected !== null && options.some((option) => option.value === selected) ? selected : ALL_FILTER_VALUE;
  return (
    <Select name={name} defaultValue={value} className="w-56" variant="secondary">
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
 * Channel, persona and product as `?channel=…&persona=…&product=…` beside the period's parameters: a GET form,
 * so the address is the view and can be shared; nothing changes until "Show" is pressed.
 */
export function OverviewFilterForm({
  path,
  channels,
  personas,
  products,
  selected,
  periodQuery,
}: {
  path: string;
  channels: Option[];
  personas: Option[];
  products: Option[];
  selected: { channel: string | null; persona: string | null; product: string | null };
  periodQuery: PeriodQuery;
}) {
  const plain = new URLSearchParams(periodQuery).toString();
  const filtered = selected.channel !== null || selected.persona !== null || selected.product !== null;
  return (
    <form method="get" action={path} className="flex flex-wrap items-end gap-3" aria-label="Filter the messages">
      {Object.entries(periodQuery).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <FilterSelect name="channel" label="Channel" allLabel="All channels" options={channels} selected={selected.channel} />
      <FilterSelect name="persona" label="Persona" allLabel="All personas" options={personas} selected={selected.persona} />
      <FilterSelect name="product" label="Product" allLabel="All products" options={products} selected={selected.product} />
      <Button type="submit">Show</Button>
      {filtered ? (
        <Link href={plain === '' ? path : `${path}?${plain}`} className={buttonVariants({ variant: 'ghost' })}>
          All messages
        </Link>
      ) : null}
    </form>
  );
}
