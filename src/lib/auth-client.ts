'use client';

import { phoneNumberClient, twoFactorClient } from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/react';

/** The browser's client for /api/auth (same origin). */
export const authClient = createAuthClient({
  plugins: [phoneNumberClient(), twoFactorClient()],
});
