'use client';

import { Button, buttonVariants, Form, Input, Label, TextField } from '@heroui/react';
import { type FormEvent, useState } from 'react';
import { authClient } from '@/lib/auth-client';
import { describeSignInError } from '../../sign-in-errors';
import { FormMessage } from './form-message';

type Method = 'totp' | 'sms' | 'backup';

const labels: Record<Method, string> = {
  totp: 'Code from your authenticator app',
  sms: 'Code sent by SMS',
  backup: 'Backup code',
};

/** The second sign-in step (seed-spec: second-factor sign-in start/finalize): app code, SMS code or backup code. */
export function TwoFactorChallenge({ onSignedIn, onCancel }: { onSignedIn: () => void; onCancel: () => void }) {
  const [method, setMethod] = useState<Method>('totp');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const sendSms = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await authClient.twoFactor.sendOtp();
      if (result.error) setError(describeSignInError(result.error));
      else setNotice('We sent a code to the phone number on your account. It works for 5 minutes.');
    } catch {
      setError(describeSignInError('network-request-failed'));
    } finally {
      setBusy(false);
    }
  };

  const verify = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code') ?? '').trim();
    setBusy(true);
    setError(null);
    try {
      const result =
        method === 'totp'
          ? await authClient.twoFactor.verifyTotp({ code })
          : method === 'sms'
            ? await authClient.twoFactor.verifyOtp({ code })
            : await authClient.twoFactor.verifyBackupCode({ code });
      if (result.error) setError(describeSignInError(result.error));
      else onSignedIn();
    } catch {
      setError(describeSignInError('network-request-failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="two-factor-heading" className="flex flex-col gap-4">
      <h2 id="two-factor-heading" className="text-xl font-semibold">
        Second step
      </h2>
      <div role="radiogroup" aria-label="How do you want to confirm it is you?" className="flex flex-wrap gap-2">
        {(Object.keys(labels) as Method[]).map((candidate) => (
          <button
            key={candidate}
            type="button"
            role="radio"
            aria-checked={candidate === method}
            className={buttonVariants({ size: 'sm', variant: candidate === method ? 'secondary' : 'ghost' })}
            onClick={() => {
              setMethod(candidate);
              setError(null);
              setNotice(null);
              if (candidate === 'sms') void sendSms();
            }}
          >
            {candidate === 'totp' ? 'Authenticator app' : candidate === 'sms' ? 'SMS' : 'Backup code'}
          </button>
        ))}
      </div>
      <Form className="flex flex-col gap-4" onSubmit={(event) => void verify(event)} aria-label="Second step">
        <TextField
          key={method}
          name="code"
          isRequired
          autoComplete="one-time-code"
          inputMode={method === 'backup' ? 'text' : 'numeric'}
          maxLength={method === 'backup' ? 32 : 6}
          autoFocus
        >
          <Label>{labels[method]}</Label>
          <Input />
        </TextField>
        <FormMessage error={error} notice={notice} />
        <Button type="submit" variant="primary" isDisabled={busy}>
          Confirm
        </Button>
        {method === 'sms' ? (
          <Button variant="ghost" size="sm" onPress={() => void sendSms()} isDisabled={busy}>
            Send a new code
          </Button>
        ) : null}
        <Button variant="ghost" size="sm" onPress={onCancel}>
          Start again
        </Button>
      </Form>
    </section>
  );
}
