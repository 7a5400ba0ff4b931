import { getDatabase } from '@/db/client';
import { getEnvironment } from '@/lib/env';
import { createCaptchaChallenge } from '@/lib/server/captcha';
import { errorResponse, jsonResponse } from '@/lib/server/http';
import { loadInstanceSecret } from '@/lib/server/instance-secret';

// A fresh proof-of-work challenge for the ALTCHA widget (the phone sign-in requires solving one).
export async function GET() {
  try {
    const secret = await loadInstanceSecret(getDatabase(), getEnvironment().AUTH_SECRET);
    return jsonResponse(await createCaptchaChallenge({ secret }));
  } catch (error) {
    return errorResponse(error);
  }
}
