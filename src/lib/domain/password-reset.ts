/** A password-reset link works once, for this long (auth.ts gives it to better-auth; the reset page says it). */
export const passwordResetLinkMinutes = 30;
