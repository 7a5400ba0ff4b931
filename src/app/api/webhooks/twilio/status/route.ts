import { handleTwilioWebhook } from '@/features/messaging-webhooks';

// Twilio's status callback (StatusCallback of every message we send: PUBLIC_URL + this path).
export async function POST(request: Request) {
  return handleTwilioWebhook(request, 'status');
}
