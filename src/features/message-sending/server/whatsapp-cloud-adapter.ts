import 'server-only';
import { z } from '@/lib/zod';
import type { ChannelAdapter, WhatsAppContent } from './channel-adapter';
import { ChannelSendError, mayHaveArrived } from './channel-send-error';

/** The Graph API version the requests name; Meta keeps each version for about two years. */
export const whatsAppGraphVersion = 'v23.0';

/**
 * Meta's error codes that mean "not now" rather than "never": throughput and pair rate limits, and its
 * temporary and service-unavailable errors. Everything else (131047 re-engagement outside the window,
 * 131026 undeliverable, 132xxx template problems, 100 bad parameter, 190 bad token) is permanent.
 */
const rateLimitCodes = new Set(['4', '80007', '130429', '131048', '131056']);
const unavailableCodes = new Set(['1', '2', '131000', '131016', '133004']);

const errorAnswer = z.object({
  error: z.object({
    code: z.union([z.number(), z.string()]).optional(),
    message: z.string().optional(),
    error_subcode: z.number().optional(),
  }),
});
const acceptedAnswer = z.object({ messages: z.array(z.object({ id: z.string().min(1) })).min(1) });

/** Meta's body for each kind of message (Cloud API, POST /{version}/{phone-number-id}/messages). */
export function whatsAppRequestBody(to: string, content: WhatsAppContent): Record<string, unknown> {
  const base = { messaging_product: 'whatsapp', recipient_type: 'individual', to: to.replace(/[^0-9]/g, '') };
  switch (content.kind) {
    case 'text':
      return {
        ...base,
        ...(content.replyTo === undefined ? {} : { context: { message_id: content.replyTo } }),
        type: 'text',
        text: { body: content.body, preview_url: false },
      };
    case 'interactive-buttons':
      return {
        ...base,
        type: 'interactive',
        interactive: {
          type: 'button',
          body: { text: content.body },
          action: { buttons: content.buttons.map(({ title, payload }) => ({ type: 'reply', reply: { id: payload, title } })) },
        },
      };
    case 'interactive-list':
      return {
        ...base,
        type: 'interactive',
        interactive: {
          type: 'list',
          body: { text: content.body },
          action: {
            button: content.buttonText,
            // One section: WhatsApp needs a section title only when there are several.
            sections: [
              {
                rows: content.rows.map(({ title, description, payload }) => ({
                  id: payload,
                  title,
                  ...(description === undefined ? {} : { description }),
                })),
              },
            ],
          },
        },
      };
    case 'template':
      return {
        ...base,
        type: 'template',
        template: {
          name: content.name,
          language: { policy: 'deterministic', code: content.language },
          components: [
            ...(content.parameters.length === 0
              ? []
              : [{ type: 'body', parameters: content.parameters.map(({ name, text }) => ({ type: 'text', parameter_name: name, text })) }]),
            // The quick-reply buttons are part of the approved template; we only set what each one sends back.
            ...content.buttonPayloads.map((payload, index) => ({
              type: 'button',
              sub_type: 'quick_reply',
              index: String(index),
              parameters: [{ type: 'payload', payload }],
            })),
          ],
        },
      };
  }
}

function classify(httpStatus: number, code: string | null): 'rate_limited' | 'unavailable' | 'validation' {
  if (httpStatus === 429 || (code !== null && rateLimitCodes.has(code))) return 'rate_limited';
  if (httpStatus >= 500 || (code !== null && unavailableCodes.has(code))) return 'unavailable';
  return 'validation';
}

/** The WhatsApp Cloud API over fetch: one authenticated JSON POST per message. */
export function createWhatsAppCloudAdapter(options: {
  apiUrl: string;
  phoneNumberId: string;
  accessToken: string;
  version?: string;
  timeoutMs?: number;
}): ChannelAdapter<'whatsapp'> {
  const url = `${options.apiUrl.replace(/\/$/, '')}/${options.version ?? whatsAppGraphVersion}/${encodeURIComponent(options.phoneNumberId)}/messages`;
  return {
    channel: 'whatsapp',
    provider: 'whatsapp-cloud-api',
    send: async ({ to, content }) => {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { Authorization: `Bearer ${options.accessToken}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(whatsAppRequestBody(to, content)),
          signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
        });
      } catch (error) {
        throw new ChannelSendError({
          provider: 'whatsapp-cloud-api',
          httpStatus: null,
          providerCode: null,
          description: mayHaveArrived(error) ? 'no answer (the request may have arrived)' : 'the API could not be reached',
          code: 'unavailable',
          uncertain: mayHaveArrived(error),
          cause: error,
        });
      }
      const answer: unknown = await response.json().catch(() => null);
      if (!response.ok) {
        const parsed = errorAnswer.safeParse(answer);
        const code = parsed.success && parsed.data.error.code !== undefined ? String(parsed.data.error.code) : null;
        throw new ChannelSendError({
          provider: 'whatsapp-cloud-api',
          httpStatus: response.status,
          providerCode: code,
          // Meta's message describes the request (never our patient's data), e.g. "Re-engagement message".
          description:
            parsed.success && parsed.data.error.message !== undefined ? parsed.data.error.message.slice(0, 200) : 'no error description',
          code: classify(response.status, code),
        });
      }
      const accepted = acceptedAnswer.safeParse(answer);
      if (!accepted.success)
        throw new ChannelSendError({
          provider: 'whatsapp-cloud-api',
          httpStatus: response.status,
          providerCode: null,
          description: 'the answer named no message id',
          code: 'unavailable',
          uncertain: true,
        });
      return { providerMessageId: accepted.data.messages[0]!.id, status: 'accepted' };
    },
  };
}
