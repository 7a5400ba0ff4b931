'use client';

import { ComboBox, Description, Input, Label, ListBox } from '@heroui/react';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';

/** One patient the clinician may open, with the profile's address for it (the period kept). */
export type PatientPickerChoice = { id: string; pseudonym: string; synthetic: boolean; href: string };

/**
 * A searchable list of the organisation's patients. Choosing one (click, or arrows and Enter) moves to that
 * patient's address on the client — the shell and the picker stay, only the profile is fetched again.
 * Typing only filters: nothing moves until a patient is chosen.
 */
export function PatientPicker({ choices, selected }: { choices: PatientPickerChoice[]; selected: string | null }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [value, setValue] = useState<string | null>(selected);
  // The page's patient changes after a navigation (or the browser's back button): follow it.
  const [shown, setShown] = useState(selected);
  if (shown !== selected) {
    setShown(selected);
    setValue(selected);
  }

  const choose = (key: string | number | null) => {
    if (key === null) return;
    const choice = choices.find((candidate) => candidate.id === String(key));
    if (choice === undefined || choice.id === selected) return;
    setValue(choice.id);
    startTransition(() => router.push(choice.href));
  };

  return (
    <div className="flex flex-wrap items-end gap-3">
      <ComboBox className="w-80" variant="secondary" value={value} onChange={choose}>
        <Label>Patient of your organisation</Label>
        <ComboBox.InputGroup>
          <Input placeholder="Type a pseudonym" />
          <ComboBox.Trigger />
        </ComboBox.InputGroup>
        <Description>
          {choices.length} patient{choices.length === 1 ? '' : 's'}, by pseudonym. Type to narrow the list.
        </Description>
        <ComboBox.Popover>
          <ListBox>
            {choices.map((choice) => (
              <ListBox.Item key={choice.id} id={choice.id} textValue={choice.pseudonym} data-patient-id={choice.id}>
                {choice.pseudonym}
                {choice.synthetic ? ' (synthetic demo data)' : ''}
                <ListBox.ItemIndicator />
              </ListBox.Item>
            ))}
          </ListBox>
        </ComboBox.Popover>
      </ComboBox>
      <p role="status" className="pb-2 text-sm text-muted">
        {pending ? 'Opening the patient…' : ''}
      </p>
    </div>
  );
}
