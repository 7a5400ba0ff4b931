import { describe, expect, it } from 'vitest';
import { performLogout } from './logout';

describe('performLogout (seed-spec §4)', () => {
  it('clears the two values, signs out, then goes home — in that order', async () => {
    const calls: string[] = [];
    await performLogout({
      clearProfile: (value) => calls.push(`clearProfile(${JSON.stringify(value)})`),
      clearPreferences: (value) => calls.push(`clearPreferences(${JSON.stringify(value)})`),
      signOut: async () => {
        calls.push('signOut');
      },
      goHomeAndReload: () => calls.push('goHomeAndReload'),
    });
    expect(calls).toEqual(['clearProfile(null)', 'clearPreferences({})', 'signOut', 'goHomeAndReload']);
  });

  it('still goes home when signing out fails, and reports the failure', async () => {
    const calls: string[] = [];
    await expect(
      performLogout({
        clearProfile: () => calls.push('clearProfile'),
        clearPreferences: () => calls.push('clearPreferences'),
        signOut: async () => {
          throw new Error('offline');
        },
        goHomeAndReload: () => calls.push('goHomeAndReload'),
      }),
    ).rejects.toThrow('offline');
    expect(calls).toEqual(['clearProfile', 'clearPreferences', 'goHomeAndReload']);
  });
});
