'use client';

import { Button, FieldError, Form, Input, Label, TextField } from '@heroui/react';
import { type FormEvent, useState } from 'react';
import { formatDateTime } from '@/lib/format';
import type { ActionResult } from '@/lib/server/action-result';
import type { ProfileDocument } from '../schemas';
import { useAuthState } from './auth-state';
import { FormMessage } from './login/form-message';

const roleNames: Record<string, string> = {
  patient: 'Patient',
  clinician: 'Clinician',
  'drug-manufacturer': 'Drug manufacturer',
  'government-official': 'Government official',
  admin: 'Administrator',
};

/** /profile: the live profile document and the fields a user edits. */
export function ProfileEditor({ updateProfile }: { updateProfile: (input: unknown) => Promise<ActionResult<ProfileDocument>> }) {
  const { user, userData, userDataLoading } = useAuthState();
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ error?: string; notice?: string }>({});

  if (userDataLoading) return <p role="status">Loading your profile…</p>;
  if (userData === null) return <FormMessage error="Your profile could not be loaded. Reload the page to try again." />;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    setBusy(true);
    setErrors({});
    setMessage({});
    const result = await updateProfile({
      displayName: String(data.get('displayName') ?? ''),
      phone: String(data.get('phone') ?? ''),
      timezone: String(data.get('timezone') ?? ''),
      language: String(data.get('language') ?? ''),
    }).catch(() => null);
    setBusy(false);
    if (result === null) setMessage({ error: 'We could not reach the server. Your changes were not saved.' });
    else if (!result.ok) {
      setErrors(result.error.fieldErrors ?? {});
      setMessage({ error: result.error.message });
    } else setMessage({ notice: 'Saved.' });
  };

  return (
    <div className="flex flex-col gap-8">
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]" aria-label="Your account">
        <dt className="text-muted">E-mail</dt>
        <dd>{user?.email}</dd>
        <dt className="text-muted">Role</dt>
        <dd data-testid="profile-role">{roleNames[userData.role] ?? userData.role}</dd>
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
      <Form key={userData.updatedUnix} className="flex max-w-lg flex-col gap-4" validationErrors={errors} onSubmit={(event) => void submit(event)} aria-label="Edit your profile">
        <TextField name="displayName" defaultValue={userData.displayName ?? ''} maxLength={120} autoComplete="name">
          <Label>Display name</Label>
          <Input />
          <FieldError />
        </TextField>
        <TextField name="phone" type="tel" defaultValue={userData.phone ?? ''} maxLength={32} autoComplete="tel">
          <Label>Phone</Label>
          <Input placeholder="+447700900123" />
          <FieldError />
        </TextField>
        <TextField name="timezone" defaultValue={userData.timezone ?? ''} maxLength={64}>
          <Label>Time zone</Label>
          <Input placeholder="Europe/London" />
          <FieldError />
        </TextField>
        <TextField name="language" defaultValue={userData.language ?? ''} maxLength={35}>
          <Label>Language</Label>
          <Input placeholder="en-GB" />
          <FieldError />
        </TextField>
        <FormMessage error={message.error} notice={message.notice} />
        <Button type="submit" variant="primary" isDisabled={busy}>
          Save
        </Button>
      </Form>
    </div>
  );
}
