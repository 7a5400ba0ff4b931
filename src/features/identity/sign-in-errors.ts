/**
 * Every sign-in error shown on /login as a sentence a person understands (DESIGN §8.3), never as a code.
 * Keys are the seed spec's identity error codes (§8) and better-auth's codes.
 */
const messages: Record<string, string> = {
  // Seed-spec §8 codes
  'argument-error': 'Something in the request was not right. Please check what you entered and try again.',
  'internal-error': 'Something went wrong on our side. Please try again in a moment.',
  'network-request-failed': 'We could not reach the server. Check your internet connection and try again.',
  'popup-blocked': 'Your browser blocked the sign-in window. Allow pop-ups for this site, or sign in in this window instead.',
  'popup-closed-by-user': 'The sign-in window was closed before signing in finished.',
  'cancelled-popup-request': 'That sign-in window was replaced by a newer one.',
  'web-storage-unsupported': 'Your browser is blocking the storage this sign-in needs. Allow cookies for this site and try again.',
  'unauthorized-domain': 'Signing in is not allowed from this address. Open the app at its usual address and try again.',
  'missing-multi-factor-info': 'Your second sign-in step could not be found. Please start signing in again.',
  'operation-not-supported-in-this-environment': 'This way of signing in does not work in this browser. Please use another one.',
  'invalid-api-key': 'Sign-in is not configured correctly. Please tell the administrator.',
  'invalid-persistence-type': 'Sign-in is not configured correctly. Please tell the administrator.',
  // better-auth codes
  INVALID_EMAIL_OR_PASSWORD: 'That e-mail and password do not match an account. Check both and try again.',
  INVALID_EMAIL: 'Please enter a valid e-mail address.',
  INVALID_PASSWORD: 'That e-mail and password do not match an account. Check both and try again.',
  PASSWORD_TOO_SHORT: 'Choose a password of at least 12 characters.',
  PASSWORD_TOO_LONG: 'That password is too long. Use at most 256 characters.',
  EMAIL_NOT_VERIFIED: 'Please confirm your e-mail address first: open the link we sent you.',
  USER_ALREADY_EXISTS: 'We could not create the account. If you already have one, sign in instead.',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'We could not create the account. If you already have one, sign in instead.',
  TOO_MANY_REQUESTS: 'Too many attempts. Please wait a minute and try again.',
  TOO_MANY_ATTEMPTS: 'Too many attempts. Please wait a while before trying again.',
  INVALID_PHONE_NUMBER: 'Enter your mobile number in international form, for example +44 7700 900123.',
  INVALID_PHONE_NUMBER_OR_PASSWORD: 'That phone number and code do not match. Request a new code and try again.',
  CAPTCHA_FAILED: 'Please complete the “I am not a robot” check first.',
  CAPTCHA_REQUIRED:
    'There have been several wrong passwords for this e-mail address, so signing in now also needs the “I am not a robot” check. Complete it below and sign in again.',
  INVALID_OTP: 'That code is not right. Check it and try again.',
  OTP_EXPIRED: 'That code has expired or was replaced by a newer one. Request a new code.',
  OTP_NOT_FOUND: 'That code has expired or was replaced by a newer one. Request a new code.',
  INVALID_CODE: 'That code is not right. Check it and try again.',
  INVALID_TWO_FACTOR_COOKIE: 'Your sign-in took too long. Please start again.',
  INVALID_BACKUP_CODE: 'That backup code is not right, or it was used already.',
  // better-auth's two-factor and phone-number codes (a test checks every one has a sentence)
  ACCOUNT_TEMPORARILY_LOCKED: 'Too many wrong codes in a row: second-step sign-in is locked for 15 minutes. Try again later.',
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: 'Too many wrong codes. Start again: sign in with your password for a new code.',
  OTP_HAS_EXPIRED: 'That code has expired or was replaced by a newer one. Request a new code.',
  OTP_NOT_ENABLED: 'Codes by SMS are not turned on for this account. Choose another way.',
  OTP_NOT_CONFIGURED: 'Codes by SMS are not available here. Choose another way.',
  TOTP_NOT_ENABLED: 'No authenticator app is set up for this account. Choose SMS or a backup code.',
  TOTP_ALREADY_ENABLED: 'An authenticator app is already set up. Turn two-factor sign-in off first to set up another.',
  TOTP_NOT_CONFIGURED: 'Authenticator apps are not available here. Choose another way.',
  TWO_FACTOR_NOT_ENABLED: 'Two-factor sign-in is not turned on for this account.',
  BACKUP_CODES_NOT_ENABLED: 'This account has no backup codes. Choose another way.',
  PHONE_NUMBER_EXIST: 'That phone number belongs to another account.',
  PHONE_NUMBER_NOT_EXIST: 'That phone number and code do not match. Request a new code and try again.',
  PHONE_NUMBER_NOT_VERIFIED: 'That phone number is not confirmed yet. Request a code to confirm it.',
  PHONE_NUMBER_PENDING_VERIFICATION: 'That phone number is not confirmed yet. Request a code to confirm it.',
  PHONE_NUMBER_CANNOT_BE_UPDATED: 'The phone number can only be changed with a code sent to the new number.',
  PHONE_NUMBER_CANNOT_BE_SET: 'The phone number can only be changed with a code sent to the new number.',
  SEND_OTP_NOT_IMPLEMENTED: 'Codes by SMS are not available here.',
  UNEXPECTED_ERROR: 'Something went wrong on our side. Please try again in a moment.',
  INVALID_TOKEN: 'This reset link has expired or has already been used. Ask for a new one below.',
  CODE_ALREADY_USED: 'That code was used already. Wait for the next one in your authenticator app.',
  NO_PHONE_NUMBER: 'There is no phone number on your account for a code by SMS.',
  OAUTH_STATE_MISMATCH: 'The sign-in response did not match this browser’s request, so it was refused. Please start again.',
  STATE_MISMATCH: 'The sign-in response did not match this browser’s request, so it was refused. Please start again.',
  PROVIDER_NOT_FOUND: 'Sign-in with your organisation is not set up here.',
  // better-auth's OAuth callback errors (lower case, as they arrive in /login?error=…)
  state_mismatch: 'The sign-in response did not match this browser’s request, so it was refused. Please start again.',
  state_not_found:
    'The sign-in response did not match a request from this browser (it may have been used already), so it was refused. Please start again.',
  please_restart_the_process:
    'The sign-in response did not match a request from this browser (it may have been used already), so it was refused. Please start again.',
  invalid_code: 'Your organisation’s sign-in answer could not be confirmed. Please start again.',
  no_code: 'Your organisation’s sign-in did not complete. Please start again.',
  oauth_provider_not_found: 'Sign-in with your organisation is not set up here.',
  unable_to_get_user_info: 'Your organisation did not share the details needed to sign you in.',
  email_not_found: 'Your organisation did not share an e-mail address, which is needed to sign you in.',
  internal_server_error: 'Something went wrong on our side. Please try again in a moment.',
  access_denied: 'Signing in with your organisation was cancelled.',
};

const fallback = 'Signing in did not work. Please try again.';

/** A human sentence for a sign-in error code (or an error carrying one), never the code itself. */
export function describeSignInError(
  error: { code?: string | null; status?: number; message?: string | null } | string | null | undefined,
): string {
  if (error === null || error === undefined) return fallback;
  if (typeof error === 'string') return messages[error] ?? messages[error.toUpperCase()] ?? fallback;
  if (error.code && messages[error.code]) return messages[error.code] as string;
  if (error.status === 429) return messages.TOO_MANY_REQUESTS as string;
  if (error.status === 0 || error.message === 'Failed to fetch') return messages['network-request-failed'] as string;
  return fallback;
}

export const signInErrorCodes = Object.keys(messages);
