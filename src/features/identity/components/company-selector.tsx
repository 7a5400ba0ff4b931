'use client';

import { Button, Checkbox, CheckboxGroup, Label } from '@heroui/react';
import { startTransition, useActionState, useState } from 'react';
import { emptyCompanySelection } from '../schemas';
import { useAuthState } from './auth-state';
import { FormMessage } from './login/form-message';

type SaveMessage = { error?: string; notice?: string };

/** /app/drug-company-selector: tick which of your companies the portal shows (stored in selectedDrugCompanies). */
export function CompanySelector() {
  const { userData, userDataLoading, updateSelectedDrugCompanies } = useAuthState();
  const [draft, setDraft] = useState<string[] | null>(null);
  const [message, save, saving] = useActionState(
    async (_previous: SaveMessage, request: { selected: string[]; draft: string[] | null }): Promise<SaveMessage> => {
      // Refused here as on the server (which refuses it too), without a round trip.
      if (request.selected.length === 0) return { error: emptyCompanySelection };
      try {
        await updateSelectedDrugCompanies(request.selected);
        // The live profile may show the saved state before this call returns; a tick made since then stays.
        setDraft((current) => (current === request.draft ? null : current));
        return { notice: 'Saved.' };
      } catch (error) {
        return { error: (error as Error).message };
      }
    },
    {},
  );

  if (userDataLoading) return <p role="status">Loading your companies…</p>;
  if (userData === null) return <FormMessage error="Your profile could not be loaded. Reload the page to try again." />;
  if (userData.role !== 'drug-manufacturer') {
    return <p>Choosing companies is for drug manufacturers. Your role does not belong to a company.</p>;
  }
  if (userData.memberCompanies.length === 0) {
    return <p>You do not belong to any company yet. An administrator adds you to your company.</p>;
  }
  const selected = draft ?? Object.keys(userData.selectedDrugCompanies);

  return (
    <div className="flex max-w-lg flex-col gap-4">
      <CheckboxGroup name="companies" value={selected} onChange={setDraft}>
        <Label>Companies to view</Label>
        {userData.memberCompanies.map((company) => (
          <Checkbox key={company.id} value={company.id}>
            <Checkbox.Control>
              <Checkbox.Indicator />
            </Checkbox.Control>
            <Checkbox.Content>
              <Label>{company.name}</Label>
            </Checkbox.Content>
          </Checkbox>
        ))}
      </CheckboxGroup>
      <FormMessage error={saving ? undefined : message.error} notice={saving ? undefined : message.notice} />
      <Button variant="primary" onPress={() => startTransition(() => save({ selected, draft }))} isDisabled={saving}>
        Save selection
      </Button>
    </div>
  );
}
