'use client';

/** Per-browser view preferences (filters, chosen cohort, …) kept in localStorage; cleared at logout. */
const storageKey = 'medaptive.preferences';

export type ClientPreferences = Record<string, unknown>;

export function setClientPreferences(preferences: ClientPreferences): void {
  window.localStorage.setItem(storageKey, JSON.stringify(preferences));
}
