'use client';

import { Button, Description, FieldError, Form, Input, Label, TextField } from '@heroui/react';
import { startTransition, useActionState } from 'react';
import { roleNames } from '@/lib/domain/roles';
import { formatDateTime } from '@/lib/format';
import type { ActionResult } from '@/lib/server/action-result';
import type { ProfileDocument } from '../schemas';
import { useAuthState } from './auth-state';
import { FormMessage } from './login/form-message';

/** What the last save left on the form: field errors and one message. */
type SaveState = { fieldErrors: Record<string, string>; error?: string; notice?: string };

// While a save runs, the last one's errors are gone, as the form is being checked again.
const noFieldErrors: Record<string, string> = {};

/** /profile: the live profile document and the fields a user edits. */
export function ProfileEditor({ updateProfile }: { updateProfile: (input: unknown) => Promise<ActionResult<ProfileDocument>> }) {
  const { user, userData, userDataLoading } = useAuthState();
  const [saved, save, saving] = useActionState(
    async (_previous: SaveState, data: FormData): Promise<SaveState> => {
      const result = await updateProfile({
        displayName: String(data.get('displayName') ?? ''),
        phone: String(data.get('phone') ?? ''),
        timezone: String(data.get('timezone') ?? ''),
        language: String(data.get('language') ?? ''),
      }).catch(() => null);
      if (result === null) return { fieldErrors: {}, error: 'We could not reach the server. Your changes were not saved.' };
      if (!result.ok) return { fieldErrors: result.error.fieldErrors ?? {}, error: result.error.message };
      return { fieldErrors: {}, notice: 'Saved.' };
    },
    { fieldErrors: noFieldErrors },
  );

  if (userDataLoading) return <p role="status">Loading your profile…</p>;
  if (userData === null) return <FormMessage error="Your profile could not be loaded. Reload the page to try again." />;

  return (
    <div className="flex flex-col gap-8">
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]" aria-label="Your account">
        <dt className="text-muted">E-mail</dt>
        <dd>{user?.email}</dd>
        <dt className="text-muted">Role</dt>
        <dd data-testid="profile-role">{roleNames[userData.role]}</dd>
        {userData.memberCompanies.length > 0 ? (
          <>
            <dt className="text-muted">Companies</dt>
            <dd>{userData.memberCompanies.map((company) => company.name).join(', ')}</dd>
          </>
        ) : null}
        <dt className="text-muted">Last updated</dt>
        <dd data-testid="profile-updated">{formatDateTime(userData.updatedUnix)}</dd>
      </dl>
      {/* Keyed on updatedUnix: a change made elsewhere (another tab, an admin) refreshes the form. */}
      <Form
        key={userData.updatedUnix}
        className="flex max-w-lg flex-col gap-4"
        validationErrors={saving ? noFieldErrors : saved.fieldErrors}
        onSubmit={(event) => {
          // Dispatched by hand, not through <form action>, which would reset what the user typed after a refusal.
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          startTransition(() => save(data));
        }}
        aria-label="Edit your profile"
      >
        <TextField name="displayName" defaultValue={userData.displayName ?? ''} maxLength={120} autoComplete="name">
          <Label>Display name</Label>
          <Input />
          <FieldError />
        </TextField>
        <TextField name="phone" type="tel" defaultValue={userData.phone ?? ''} maxLength={32} autoComplete="tel">
          <Label>Phone</Label>
          <Input />
          <Description>In international form, starting with + and the country code, e.g. +447700900123.</Description>
          <FieldError />
        </TextField>
        <TextField name="timezone" defaultValue={userData.timezone ?? ''} maxLength={64}>
          <Label>Time zone</Label>
          <Input />
          <Description>A time zone name, e.g. Europe/London.</Description>
          <FieldError />
        </TextField>
        <TextField name="language" defaultValue={userData.language ?? ''} maxLength={35}>
          <Label>Language</Label>
          <Input />
          <Description>A language tag, e.g. en-GB for British English.</Description>
          <FieldError />
        </TextField>
        <FormMessage error={saving ? undefined : saved.error} notice={saving ? undefined : saved.notice} />
        <Button type="submit" variant="primary" isDisabled={saving}>
          Save
        </Button>
      </Form>
    </div>
  );
}
