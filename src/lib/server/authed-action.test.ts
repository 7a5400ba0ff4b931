import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from '@/lib/zod';
import { AppError } from '@/lib/errors';
import type { SessionUser } from './session';

// The request a server action sees: its headers and who is signed in.
const request = vi.hoisted(() => ({ headers: new Headers(), user: null as SessionUser | null }));
vi.mock('next/headers', () => ({ headers: async () => request.headers }));
vi.mock('./session', () => ({ getSessionUser: async () => request.user }));
vi.mock('@/db/client', () => ({ getDatabase: () => ({}) }));

const { authedAction } = await import('./authed-action');
const { isSameOrigin: isSameOriginRequest } = await import('./require-same-origin');
const isSameOrigin = (headers: Headers, publicAddress: string) =>
  isSameOriginRequest(headers, { allowedOrigins: [publicAddress], requireBrowser: true });

const patient: SessionUser = { id: 'u1', email: 'p@example.org', name: 'P', role: 'patient', phoneNumber: null, twoFactorEnabled: false };

describe('isSameOrigin', () => {
  const from = (entries: Record<string, string>) => new Headers(entries);
  it('accepts the public address and the host the request came to', () => {
    expect(isSameOrigin(from({ origin: 'https://medaptive.example.org', host: 'internal:3000' }), 'https://medaptive.example.org')).toBe(
      true,
    );
    expect(isSameOrigin(from({ origin: 'http://127.0.0.1:3000', host: '127.0.0.1:3000' }), 'http://localhost:3000')).toBe(true);
    expect(
      isSameOrigin(
        from({ origin: 'https://app.example.org', host: 'internal:3000', 'x-forwarded-host': 'app.example.org' }),
        'http://localhost:3000',
      ),
    ).toBe(true);
  });
  it('refuses another site, a malformed Origin and none', () => {
    expect(isSameOrigin(from({ origin: 'https://evil.example', host: 'localhost:3000' }), 'http://localhost:3000')).toBe(false);
    expect(isSameOrigin(from({ origin: 'null', host: 'localhost:3000' }), 'http://localhost:3000')).toBe(false);
    expect(isSameOrigin(from({ host: 'localhost:3000' }), 'http://localhost:3000')).toBe(false);
  });
});

describe('authedAction', () => {
  const run = vi.fn(async (input: { name: string }, context: { actor: SessionUser }) => `${input.name} for ${context.actor.id}`);
  const action = authedAction({ schema: z.object({ name: z.string().min(1, 'Enter a name.') }), label: 'The form', run });

  beforeEach(() => {
    request.headers = new Headers({ origin: 'http://localhost:3000', host: 'localhost:3000' });
    request.user = patient;
    run.mockClear();
  });

  it('parses the input and calls the use case with the signed-in user', async () => {
    expect(await action({ name: 'Ada' })).toEqual({ ok: true, data: 'Ada for u1' });
  });

  it('refuses a request from another site before anything runs', async () => {
    request.headers = new Headers({ origin: 'https://evil.example', host: 'localhost:3000' });
    expect(await action({ name: 'Ada' })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(run).not.toHaveBeenCalled();
  });

  it('answers "No user logged in" without a user', async () => {
    request.user = null;
    expect(await action({ name: 'Ada' })).toEqual({ ok: false, error: { code: 'unauthenticated', message: 'No user logged in' } });
    expect(run).not.toHaveBeenCalled();
  });

  it('names the fields at fault', async () => {
    expect(await action({ name: '' })).toEqual({
      ok: false,
      error: { code: 'validation', message: 'The form is not valid: name: Enter a name.', fieldErrors: { name: 'Enter a name.' } },
    });
    expect(run).not.toHaveBeenCalled();
  });

  it("keeps a use case's AppError and hides anything else", async () => {
    run.mockRejectedValueOnce(new AppError('forbidden', 'Not yours.'));
    expect(await action({ name: 'Ada' })).toEqual({ ok: false, error: { code: 'forbidden', message: 'Not yours.' } });
    run.mockRejectedValueOnce(new Error('connection refused to 10.0.0.5'));
    expect(await action({ name: 'Ada' })).toEqual({
      ok: false,
      error: { code: 'internal', message: 'Something went wrong on our side. Please try again.' },
    });
  });
});
