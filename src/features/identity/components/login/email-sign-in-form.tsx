'use client';

import { Button, Form, Input, Label, TextField } from '@heroui/react';
import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import { authClient } from '@/lib/auth-client';
import { routes } from '@/lib/routes';
import { describeSignInError } from '../../sign-in-errors';
import { CaptchaWidget, useCaptchaWidget } from '../captcha-widget';
import { FormMessage } from './form-message';

type Mode = 'sign-in' | 'sign-up';

/** E-mail and password: sign in, or create an account (12+ characters, no composition rules). */
export function EmailSignInForm({ onSignedIn, onTwoFactorRequired }: { onSignedIn: () => void; onTwoFactorRequired: () => void }) {
  const [mode, setMode] = useState<Mode>('sign-in');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // After repeated wrong passwords for an address the server asks for the ALTCHA check (CAPTCHA_REQUIRED);
  // from then on the form shows the widget and sends its solution with each attempt.
  const [captchaRequired, setCaptchaRequired] = useState(false);
  const widgetReady = useCaptchaWidget(captchaRequired);
  const [widgetKey, setWidgetKey] = useState(0);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const email = String(data.get('email') ?? '');
    const password = String(data.get('password') ?? '');
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      if (mode === 'sign-up') {
        const result = await authClient.signUp.email({ email, password, name: String(data.get('name') ?? '') });
        if (result.error) setError(describeSignInError(result.error));
        else {
          // The same answer whether or not the address had an account (nothing is revealed); the form is
          // emptied so the password does not stay on screen.
          form.reset();
          setNotice(`Check your inbox at ${email}: open the link we sent to confirm your address and sign in.`);
        }
        return;
      }
      const captcha = String(data.get('altcha') ?? '');
      if (captchaRequired && captcha === '') {
        setError(describeSignInError('CAPTCHA_FAILED'));
        return;
      }
      const result = await authClient.signIn.email({ email, password }, captcha === '' ? undefined : { headers: { 'x-altcha': captcha } });
      if (result.error) {
        setError(describeSignInError(result.error));
        if (result.error.code === 'CAPTCHA_REQUIRED') setCaptchaRequired(true);
        // A solution is accepted once: show a fresh check for the next attempt.
        if (captcha !== '') setWidgetKey((key) => key + 1);
        return;
      }
      if ((result.data as { twoFactorRedirect?: boolean } | null)?.twoFactorRedirect) onTwoFactorRequired();
      else onSignedIn();
    } catch {
      setError(describeSignInError('network-request-failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form
      className="flex flex-col gap-4"
      onSubmit={(event) => void submit(event)}
      aria-label={mode === 'sign-in' ? 'Sign in with e-mail' : 'Create an account'}
    >
      {mode === 'sign-up' ? <h2 className="text-xl font-semibold">Create an account</h2> : null}
      {mode === 'sign-up' ? (
        <TextField name="name" isRequired autoComplete="name" maxLength={120}>
          <Label>Your name</Label>
          <Input />
        </TextField>
      ) : null}
      <TextField name="email" type="email" isRequired autoComplete="email" maxLength={254}>
        <Label>Email</Label>
        <Input />
      </TextField>
      <TextField
        name="password"
        type="password"
        isRequired
        minLength={mode === 'sign-up' ? 12 : undefined}
        maxLength={256}
        autoComplete={mode === 'sign-up' ? 'new-password' : 'current-password'}
      >
        <Label>Password</Label>
        <Input />
        {mode === 'sign-up' ? (
          <p className="text-xs text-muted">At least 12 characters. A few unrelated words make a strong password.</p>
        ) : null}
      </TextField>
      {mode === 'sign-in' ? (
        <Link href={routes.passwordReset} className="self-start text-sm underline">
          Forgot your password?
        </Link>
      ) : null}
      {mode === 'sign-in' && captchaRequired ? <CaptchaWidget ready={widgetReady} resetKey={widgetKey} /> : null}
      <FormMessage error={error} notice={notice} />
      <Button type="submit" variant="primary" isDisabled={busy || (mode === 'sign-in' && captchaRequired && !widgetReady)}>
        {mode === 'sign-in' ? 'Sign in' : 'Create account'}
      </Button>
      <Button
        variant="ghost"
        size="sm"
        onPress={() => {
          setMode(mode === 'sign-in' ? 'sign-up' : 'sign-in');
          setError(null);
          setNotice(null);
        }}
      >
        {mode === 'sign-in' ? 'New here? Create an account' : 'Have an account? Sign in'}
      </Button>
    </Form>
  );
}
