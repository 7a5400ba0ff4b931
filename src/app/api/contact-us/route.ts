import type { NextRequest } from 'next/server';
import { getDatabase } from '@/db/client';
import type { ContactResponse } from '@/features/contact/schemas';
import { sendContactMessage } from '@/features/contact/server/send-contact-message';
import { clientAddressHeader } from '@/lib/client-address';
import { getEnvironment } from '@/lib/env';
import { createMailer } from '@/lib/server/mailer';
import { errorResponse, jsonResponse } from '@/lib/server/http';
import { requireSameOrigin } from '@/lib/server/require-same-origin';

const contactParameters = ['subject', 'message', 'contactName', 'contactEmail', 'contactNumber'] as const;

// Seed-spec §7: the form sends its fields as query parameters of a GET request.
export async function GET(request: NextRequest) {
  try {
    // A GET that stores and e-mails: without this, any site's <img src="/api/contact-us?…"> would make its
    // visitors' browsers relay spam through us (each from its own address, so the rate limit would not hold).
    requireSameOrigin(request);
    const environment = getEnvironment();
    const database = getDatabase();
    const input: Record<string, unknown> = {};
    for (const name of contactParameters) {
      const value = request.nextUrl.searchParams.get(name);
      if (value !== null) input[name] = value;
    }
    await sendContactMessage({
      database,
      mailer: createMailer({ database, smtpUrl: environment.SMTP_URL, from: environment.MAIL_FROM }),
      recipient: environment.CONTACT_EMAIL_TO,
      clientAddress: request.headers.get(clientAddressHeader) ?? 'unknown',
      limitPerMinute: environment.CONTACT_RATE_LIMIT_PER_MINUTE,
      input,
    });
    return jsonResponse<ContactResponse>({ success: true });
  } catch (error) {
    return errorResponse(error);
  }
}
