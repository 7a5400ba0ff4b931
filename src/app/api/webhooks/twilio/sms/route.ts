import { handleTwilioWebhook } from '@/features/messaging-webhooks';

// Twilio's inbound-message webhook (set as the number's "A message comes in" URL: PUBLIC_URL + this path).
export async function POST(request: Request) {
  return handleTwilioWebhook(request, 'sms');
}
