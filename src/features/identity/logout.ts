/**
 * Seed-spec §4 logout, in this order: clear one client-side value (with null), clear another (with an
 * empty object), sign out of the identity provider, then go to / and reload.
 */
export async function performLogout(steps: {
  clearProfile: (value: null) => void;
  clearPreferences: (value: Record<string, never>) => void;
  signOut: () => Promise<unknown>;
  goHomeAndReload: () => void;
}): Promise<void> {
  steps.clearProfile(null);
  steps.clearPreferences({});
  try {
    await steps.signOut();
  } finally {
    // Even when the server cannot be reached, the page must not keep showing a signed-in state.
    steps.goHomeAndReload();
  }
}
