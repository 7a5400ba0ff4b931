'use client';

import { Button, Description, Form, Input, Label, TextField } from '@heroui/react';
import { type FormEvent, useState } from 'react';
import { authClient } from '@/lib/auth-client';
import { describeSignInError } from '../../sign-in-errors';
import { CaptchaWidget, useCaptchaWidget } from '../captcha-widget';
import { FormMessage } from './form-message';

function normalisePhoneNumber(value: string): string {
  const trimmed = value.replace(/[\s().-]/g, '');
  return trimmed.startsWith('00') ? `+${trimmed.slice(2)}` : trimmed;
}

/** Phone number and SMS code; a solved ALTCHA check is required before a code is sent (seed-spec §1, §5). */
export function PhoneSignInForm({ onSignedIn }: { onSignedIn: () => void }) {
  const [phoneNumber, setPhoneNumber] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const widgetReady = useCaptchaWidget();
  const [widgetKey, setWidgetKey] = useState(0);

  const sendCode = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const number = normalisePhoneNumber(String(data.get('phoneNumber') ?? ''));
    const captcha = String(data.get('altcha') ?? '');
    setError(null);
    if (captcha === '') {
      setError(describeSignInError('CAPTCHA_FAILED'));
      return;
    }
    setBusy(true);
    try {
      const result = await authClient.phoneNumber.sendOtp({ phoneNumber: number }, { headers: { 'x-altcha': captcha } });
      if (result.error) {
        setError(describeSignInError(result.error));
        setWidgetKey((key) => key + 1); // a used captcha cannot be spent twice: show a fresh one
        return;
      }
      setPhoneNumber(number);
    } catch {
      setError(describeSignInError('network-request-failed'));
    } finally {
      setBusy(false);
    }
  };

  const verifyCode = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (phoneNumber === null) return;
    const code = String(new FormData(event.currentTarget).get('code') ?? '').trim();
    setBusy(true);
    setError(null);
    try {
      const result = await authClient.phoneNumber.verify({ phoneNumber, code });
      if (result.error) setError(describeSignInError(result.error));
      else onSignedIn();
    } catch {
      setError(describeSignInError('network-request-failed'));
    } finally {
      setBusy(false);
    }
  };

  if (phoneNumber !== null) {
    return (
      <Form className="flex flex-col gap-4" onSubmit={(event) => void verifyCode(event)} aria-label="Enter the code">
        <p className="text-sm text-muted">We sent a 6-digit code to {phoneNumber}. It works for 5 minutes.</p>
        <TextField name="code" isRequired autoComplete="one-time-code" inputMode="numeric" pattern="[0-9]{6}" maxLength={6} autoFocus>
          <Label>Code</Label>
          <Input />
        </TextField>
        <FormMessage error={error} />
        <Button type="submit" variant="primary" isDisabled={busy}>
          Verify and sign in
        </Button>
        <Button variant="ghost" size="sm" onPress={() => setPhoneNumber(null)}>
          Use another number or send a new code
        </Button>
      </Form>
    );
  }

  return (
    <Form className="flex flex-col gap-4" onSubmit={(event) => void sendCode(event)} aria-label="Sign in with your phone">
      <TextField name="phoneNumber" type="tel" isRequired autoComplete="tel" maxLength={24}>
        <Label>Mobile number</Label>
        <Input />
        <Description>In international form, starting with + and the country code, e.g. +44 7700 900123.</Description>
      </TextField>
      <CaptchaWidget ready={widgetReady} resetKey={widgetKey} />
      <FormMessage error={error} />
      <Button type="submit" variant="primary" isDisabled={busy || !widgetReady}>
        Send code
      </Button>
    </Form>
  );
}
