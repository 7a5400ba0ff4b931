import type { NextRequest } from 'next/server';
import { getDatabase } from '@/db/client';
import type { ContactResponse } from '@/features/contact/schemas';
import { sendContactMessage } from '@/features/contact/server/send-contact-message';
import { clientAddressHeader } from '@/lib/client-address';
import { getEnvironment } from '@/lib/env';
import { createMailer } from '@/lib/server/mailer';
import { errorResponse, jsonResponse } from '@/lib/server/http';

const contactParameters = ['subject', 'message', 'contactName', 'contactEmail', 'contactNumber'] as const;

// Seed-spec §7: the form sends its fields as query parameters of a GET request.
export async function GET(request: NextRequest) {
  try {
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
