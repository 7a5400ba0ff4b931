import { describe, expect, it, vi } from 'vitest';
import { z } from '@/lib/zod';
import type { ActionResult } from '@/lib/server/action-result';
import { submitChecked } from './submit-checked';

const schema = z.object({ patients: z.coerce.number().int().min(1, 'At least one patient.') });

function form(send: (input: { patients: string }) => Promise<ActionResult<{ id: string }>>) {
  const state = { errors: {} as Record<string, string>, message: null as string | null, busy: [] as boolean[] };
  const run = (patients: string) =>
    submitChecked({
      schema,
      input: { patients },
      send,
      unreachableMessage: 'Unreachable.',
      setErrors: (errors) => (state.errors = errors),
      setMessage: (message) => (state.message = message),
      setBusy: (busy) => state.busy.push(busy),
    });
  return { state, run };
}

describe('submitChecked', () => {
  it('names the field at fault without asking the server', async () => {
    const send = vi.fn();
    const { state, run } = form(send);
    expect(await run('0')).toBeNull();
    expect(state.errors).toEqual({ patients: 'At least one patient.' });
    expect(send).not.toHaveBeenCalled();
  });

  it('returns the parsed input and the server’s data', async () => {
    const { state, run } = form(async () => ({ ok: true, data: { id: 'run-1' } }));
    expect(await run('12')).toEqual({ checked: { patients: 12 }, data: { id: 'run-1' } });
    expect(state.busy).toEqual([true, false]);
    expect(state.message).toBeNull();
  });

  it('shows the server’s field errors and message, or that it could not be reached', async () => {
    const refused = form(async () => ({
      ok: false,
      error: { code: 'validation', message: 'The settings are not valid.', fieldErrors: { patients: 'Too many.' } },
    }));
    expect(await refused.run('5')).toBeNull();
    expect(refused.state).toMatchObject({ errors: { patients: 'Too many.' }, message: 'The settings are not valid.' });
    const offline = form(() => Promise.reject(new Error('network')));
    expect(await offline.run('5')).toBeNull();
    expect(offline.state.message).toBe('Unreachable.');
    expect(offline.state.busy).toEqual([true, false]);
  });
});
