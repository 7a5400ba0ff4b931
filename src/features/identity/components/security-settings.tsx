'use client';

import { Button, Description, Form, Input, Label, TextField } from '@heroui/react';
import QRCode from 'qrcode';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { authClient } from '@/lib/auth-client';
import { formatDateTime } from '@/lib/format';
import { sessionName } from '@/lib/session-name';
import { describeSignInError } from '../sign-in-errors';
import { useAuthState } from './auth-state';
import { CaptchaWidget, useCaptchaWidget } from './captcha-widget';
import { FormMessage } from './login/form-message';

type Message = { error?: string | null; notice?: string | null };

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `settings-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="flex flex-col gap-4 rounded-2xl border border-separator bg-surface p-6">
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function errorText(error: { code?: string; status?: number; message?: string } | null | undefined): string {
  return describeSignInError(error ?? null);
}

function PasswordSection() {
  const [message, setMessage] = useState<Message>({});
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setBusy(true);
    setMessage({});
    const result = await authClient
      .changePassword({
        currentPassword: String(data.get('currentPassword') ?? ''),
        newPassword: String(data.get('newPassword') ?? ''),
        // The server ends the other sessions in any case; asked here too so the intent is explicit.
        revokeOtherSessions: true,
      })
      .catch(() => ({ error: { code: 'network-request-failed' } }));
    setBusy(false);
    if (result.error)
      setMessage({ error: result.error.code === 'INVALID_PASSWORD' ? 'Your current password is not right.' : errorText(result.error) });
    else {
      form.reset();
      setMessage({ notice: 'Your password was changed, and your other sessions were signed out.' });
    }
  };
  return (
    <Section title="Password">
      <Form className="flex max-w-md flex-col gap-4" onSubmit={(event) => void submit(event)} aria-label="Change password">
        <TextField name="currentPassword" type="password" isRequired autoComplete="current-password">
          <Label>Current password</Label>
          <Input />
        </TextField>
        <TextField name="newPassword" type="password" isRequired minLength={12} maxLength={256} autoComplete="new-password">
          <Label>New password (at least 12 characters)</Label>
          <Input />
        </TextField>
        <p className="text-sm">Changing your password signs out all your other sessions.</p>
        <FormMessage error={message.error} notice={message.notice} />
        <Button type="submit" variant="primary" isDisabled={busy}>
          Change password
        </Button>
      </Form>
    </Section>
  );
}

function PhoneSection() {
  const { user } = useAuthState();
  const [pending, setPending] = useState<string | null>(null);
  const [message, setMessage] = useState<Message>({});
  const widgetReady = useCaptchaWidget();

  const send = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const phoneNumber = String(data.get('phoneNumber') ?? '').replace(/[\s().-]/g, '');
    const result = await authClient.phoneNumber
      .sendOtp({ phoneNumber }, { headers: { 'x-altcha': String(data.get('altcha') ?? '') } })
      .catch(() => ({ error: { code: 'network-request-failed' } }));
    if (result.error) setMessage({ error: errorText(result.error) });
    else {
      setPending(phoneNumber);
      setMessage({ notice: `We sent a code to ${phoneNumber}.` });
    }
  };
  const verify = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending === null) return;
    const code = String(new FormData(event.currentTarget).get('code') ?? '');
    const result = await authClient.phoneNumber
      .verify({ phoneNumber: pending, code, updatePhoneNumber: true })
      .catch(() => ({ error: { code: 'network-request-failed' } }));
    if (result.error) setMessage({ error: errorText(result.error) });
    else {
      setPending(null);
      setMessage({ notice: 'Your phone number is confirmed. You can now receive codes by SMS.' });
    }
  };

  return (
    <Section title="Phone number">
      <p>Current: {user?.phoneNumber ?? 'none'}</p>
      {pending === null ? (
        <Form className="flex max-w-md flex-col gap-4" onSubmit={(event) => void send(event)} aria-label="Change phone number">
          <TextField name="phoneNumber" type="tel" isRequired autoComplete="tel">
            <Label>New mobile number</Label>
            <Input />
            <Description>In international form, starting with + and the country code, e.g. +44 7700 900123.</Description>
          </TextField>
          <CaptchaWidget ready={widgetReady} />
          <FormMessage error={message.error} notice={message.notice} />
          <Button type="submit" variant="secondary">
            Send confirmation code
          </Button>
        </Form>
      ) : (
        <Form className="flex max-w-md flex-col gap-4" onSubmit={(event) => void verify(event)} aria-label="Confirm phone number">
          <TextField name="code" isRequired inputMode="numeric" maxLength={6} autoComplete="one-time-code">
            <Label>Code</Label>
            <Input />
          </TextField>
          <FormMessage error={message.error} notice={message.notice} />
          <Button type="submit" variant="primary">
            Confirm number
          </Button>
        </Form>
      )}
    </Section>
  );
}

function BackupCodes({ codes }: { codes: string[] }) {
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm">Keep these backup codes somewhere safe. Each works once, if you lose your phone.</p>
      <ul aria-label="Backup codes" className="grid max-w-sm grid-cols-2 gap-1 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </div>
  );
}

function TwoFactorSection() {
  const { user } = useAuthState();
  const session = authClient.useSession();
  const enabled = user?.twoFactorEnabled === true;
  const [enrolment, setEnrolment] = useState<{ uri: string; secret: string; qr: string; backupCodes: string[] } | null>(null);
  const [backupCodes, setBackupCodes] = useState<string[] | null>(null);
  const [message, setMessage] = useState<Message>({});

  const start = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get('password') ?? '');
    // Which of the two submit buttons was pressed: an authenticator app (totp) or SMS codes (otp).
    const method = (event.nativeEvent as SubmitEvent).submitter?.getAttribute('value') === 'otp' ? 'otp' : 'totp';
    setMessage({});
    const result = await authClient.twoFactor
      .enable({ password, method })
      .catch(() => ({ data: null, error: { code: 'network-request-failed' } }));
    if (result.error || !result.data) {
      setMessage({ error: result.error?.code === 'INVALID_PASSWORD' ? 'Your password is not right.' : errorText(result.error) });
      return;
    }
    if (!('totpURI' in result.data)) {
      setMessage({ notice: 'Two-factor sign-in by SMS is on: signing in will send a code to your phone.' });
      await session.refetch();
      return;
    }
    const uri = result.data.totpURI;
    const secret = new URL(uri).searchParams.get('secret') ?? '';
    setEnrolment({ uri, secret, qr: await QRCode.toDataURL(uri, { margin: 1, width: 200 }), backupCodes: result.data.backupCodes });
  };

  const finish = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('code') ?? '').trim();
    const result = await authClient.twoFactor.verifyTotp({ code }).catch(() => ({ error: { code: 'network-request-failed' } }));
    if (result.error) setMessage({ error: errorText(result.error) });
    else {
      setBackupCodes(enrolment?.backupCodes ?? null);
      setEnrolment(null);
      setMessage({ notice: 'Two-factor sign-in is on.' });
      await session.refetch();
    }
  };

  const withPassword = async (event: FormEvent<HTMLFormElement>, action: 'disable' | 'backup') => {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get('password') ?? '');
    setMessage({});
    if (action === 'disable') {
      const result = await authClient.twoFactor.disable({ password }).catch(() => ({ error: { code: 'network-request-failed' } }));
      if (result.error)
        setMessage({ error: result.error.code === 'INVALID_PASSWORD' ? 'Your password is not right.' : errorText(result.error) });
      else {
        setBackupCodes(null);
        setMessage({ notice: 'Two-factor sign-in is off.' });
        await session.refetch();
      }
    } else {
      const result = await authClient.twoFactor
        .generateBackupCodes({ password })
        .catch(() => ({ data: null, error: { code: 'network-request-failed' } }));
      if (result.error || !result.data) setMessage({ error: errorText(result.error) });
      else setBackupCodes(result.data.backupCodes);
    }
  };

  return (
    <Section title="Two-factor sign-in">
      <p data-testid="two-factor-status">{enabled ? 'On: signing in asks for a second step.' : 'Off.'}</p>
      {enrolment ? (
        <div className="flex flex-col gap-4">
          <p>Scan this code with your authenticator app, or type the key in by hand.</p>
          {/* The QR code encodes the key shown next to it; the text alternative is the key itself. */}
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img src={enrolment.qr} alt="QR code for your authenticator app" width={200} height={200} />
          <p>
            Key: <code data-testid="totp-secret">{enrolment.secret}</code>
          </p>
          <Form className="flex max-w-md flex-col gap-4" onSubmit={(event) => void finish(event)} aria-label="Confirm authenticator app">
            <TextField name="code" isRequired inputMode="numeric" maxLength={6} autoComplete="one-time-code">
              <Label>6-digit code from the app</Label>
              <Input />
            </TextField>
            <Button type="submit" variant="primary">
              Turn on two-factor sign-in
            </Button>
          </Form>
        </div>
      ) : enabled ? (
        <div className="flex flex-col gap-4 sm:flex-row">
          <Form className="flex flex-col gap-2" onSubmit={(event) => void withPassword(event, 'backup')} aria-label="New backup codes">
            <TextField name="password" type="password" isRequired autoComplete="current-password">
              <Label>Password</Label>
              <Input />
            </TextField>
            <Button type="submit" variant="secondary">
              New backup codes
            </Button>
          </Form>
          <Form
            className="flex flex-col gap-2"
            onSubmit={(event) => void withPassword(event, 'disable')}
            aria-label="Turn off two-factor sign-in"
          >
            <TextField name="password" type="password" isRequired autoComplete="current-password">
              <Label>Password</Label>
              <Input />
            </TextField>
            <Button type="submit" variant="danger">
              Turn off two-factor sign-in
            </Button>
          </Form>
        </div>
      ) : (
        <Form className="flex max-w-md flex-col gap-4" onSubmit={(event) => void start(event)} aria-label="Set up two-factor sign-in">
          <p className="text-sm text-muted">
            Use an authenticator app. Once your phone number is confirmed, you can also receive codes by SMS when you sign in.
          </p>
          <TextField name="password" type="password" isRequired autoComplete="current-password">
            <Label>Password</Label>
            <Input />
          </TextField>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="primary" value="totp">
              Set up authenticator app
            </Button>
            {user?.phoneNumber ? (
              <Button type="submit" variant="secondary" value="otp">
                Use SMS codes to {user.phoneNumber}
              </Button>
            ) : null}
          </div>
        </Form>
      )}
      {backupCodes ? <BackupCodes codes={backupCodes} /> : null}
      <FormMessage error={message.error} notice={message.notice} />
    </Section>
  );
}

type SessionRow = { id: string; token: string; userAgent?: string | null; ipAddress?: string | null; createdAt: string | Date };

function SessionsSection() {
  const session = authClient.useSession();
  const [sessions, setSessions] = useState<SessionRow[] | null>(null);
  const [message, setMessage] = useState<Message>({});
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let active = true;
    void authClient
      .listSessions()
      .catch(() => ({ data: null, error: { code: 'network-request-failed' } }))
      .then((result) => {
        if (!active) return;
        if (result.error || !result.data) setMessage({ error: errorText(result.error) });
        else setSessions(result.data as SessionRow[]);
      });
    return () => {
      active = false;
    };
  }, [generation]);
  const currentToken = session.data?.session.token;

  return (
    <Section title="Active sessions">
      {sessions === null ? (
        <p role="status">Loading sessions…</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label="Active sessions">
          {sessions.map((row) => (
            <li key={row.id} className="text-sm">
              {sessionName(row.userAgent)} · since {formatDateTime(row.createdAt)}
              {row.token === currentToken ? <strong> (this browser)</strong> : null}
            </li>
          ))}
        </ul>
      )}
      <FormMessage error={message.error} notice={message.notice} />
      <Button
        variant="secondary"
        onPress={() =>
          void authClient.revokeOtherSessions().then(async (result) => {
            if (result.error) setMessage({ error: errorText(result.error) });
            else {
              setMessage({ notice: 'You are signed out everywhere else.' });
              setGeneration((value) => value + 1);
            }
          })
        }
      >
        Sign out everywhere else
      </Button>
    </Section>
  );
}

/** /settings: password, phone number, two-factor enrolment and withdrawal, backup codes, sessions. */
export function SecuritySettings() {
  return (
    <div className="flex flex-col gap-6">
      <PasswordSection />
      <PhoneSection />
      <TwoFactorSection />
      <SessionsSection />
    </div>
  );
}
