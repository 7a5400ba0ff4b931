'use client';

import { Button, Form, Input, Label, TextField } from '@heroui/react';
import Link from 'next/link';
import { type FormEvent, useState } from 'react';
import { authClient } from '@/lib/auth-client';
import { passwordResetLinkMinutes } from '@/lib/domain/password-reset';
import { routes } from '@/lib/routes';
import { describeSignInError } from '../../sign-in-errors';
import { FormMessage } from './form-message';

/** Step 1: ask for a link. The answer is the same whether or not the address has an account. */
function RequestResetForm({ initialError }: { initialError: string | null }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(initialError);
  const [notice, setNotice] = useState<string | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const result = await authClient.requestPasswordReset({ email, redirectTo: routes.passwordReset });
      if (result.error) setError(describeSignInError(result.error));
      else
        setNotice(
          `If an account uses ${email}, we have sent it a link to choose a new password. The link works once, for ${passwordResetLinkMinutes} minutes.`,
        );
    } catch {
      setError(describeSignInError('network-request-failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form className="flex flex-col gap-4" aria-label="Ask for a password reset link" onSubmit={(event) => void submit(event)}>
      <p className="text-sm text-muted">Enter the e-mail address you sign in with. We will send a link to choose a new password.</p>
      <TextField name="email" type="email" isRequired autoComplete="email" maxLength={254}>
        <Label>Email</Label>
        <Input />
      </TextField>
      <FormMessage error={error} notice={notice} />
      <Button type="submit" variant="primary" isDisabled={busy}>
        Send the link
      </Button>
    </Form>
  );
}

/** Step 2, from the e-mailed link: choose the new password (12+ characters, typed twice). */
function ChooseNewPasswordForm({ token, onInvalidToken }: { token: string; onInvalidToken: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const newPassword = String(data.get('newPassword') ?? '');
    if (newPassword !== String(data.get('confirmPassword') ?? '')) {
      setError('The two passwords are not the same. Type the new password twice.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const result = await authClient.resetPassword({ newPassword, token });
      if (result.error?.code === 'INVALID_TOKEN') onInvalidToken();
      else if (result.error) setError(describeSignInError(result.error));
      else setDone(true);
    } catch {
      setError(describeSignInError('network-request-failed'));
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <div className="flex flex-col gap-4">
        <FormMessage notice="Your password has been changed, and every session signed in with the old one has ended." />
        <Link href={routes.login} className="self-start underline">
          Sign in with the new password
        </Link>
      </div>
    );
  }
  return (
    <Form className="flex flex-col gap-4" aria-label="Choose a new password" onSubmit={(event) => void submit(event)}>
      <TextField name="newPassword" type="password" isRequired minLength={12} maxLength={256} autoComplete="new-password">
        <Label>New password</Label>
        <Input />
        <p className="text-xs text-muted">At least 12 characters. A few unrelated words make a strong password.</p>
      </TextField>
      <TextField name="confirmPassword" type="password" isRequired minLength={12} maxLength={256} autoComplete="new-password">
        <Label>New password again</Label>
        <Input />
      </TextField>
      <FormMessage error={error} />
      <Button type="submit" variant="primary" isDisabled={busy}>
        Set the new password
      </Button>
    </Form>
  );
}

/**
 * /login/reset-password: better-auth's reset flow. The e-mailed link passes through better-auth, which
 * sends a valid, unexpired link here with `?token=` and any other with `?error=INVALID_TOKEN`.
 */
export function PasswordResetPanel({ token, errorCode }: { token: string | null; errorCode: string | null }) {
  const [tokenRefused, setTokenRefused] = useState(false);
  if (token !== null && !tokenRefused) return <ChooseNewPasswordForm token={token} onInvalidToken={() => setTokenRefused(true)} />;
  const error = tokenRefused || errorCode !== null ? describeSignInError(tokenRefused ? 'INVALID_TOKEN' : errorCode) : null;
  return <RequestResetForm initialError={error} />;
}
