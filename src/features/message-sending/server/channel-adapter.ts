import 'server-only';

/**
 * What a WhatsApp message carries. A template may go at any time once Meta approved it; interactive buttons
 * and plain text only inside the 24-hour customer-service window (engine whatsapp-window.ts decides).
 */
export type WhatsAppContent =
  | {
      kind: 'template';
      /** Meta's template name and language code. */
      name: string;
      language: string;
      /** Named body parameters, in order of first use. */
      parameters: readonly { name: string; text: string }[];
      /** One payload per quick-reply button of the template, in the template's button order. */
      buttonPayloads: readonly string[];
    }
  | { kind: 'interactive-buttons'; body: string; buttons: readonly { title: string; payload: string }[] }
  /**
   * An interactive list: a button (`buttonText`, ≤ 20 characters) opens up to 10 rows (title ≤ 24, description
   * ≤ 72, id ≤ 200); the tap comes back as a list_reply with the row's payload as its id.
   */
  | {
      kind: 'interactive-list';
      body: string;
      buttonText: string;
      rows: readonly { title: string; description?: string; payload: string }[];
    }
  /** `replyTo`: the wamid of the patient's message this answers (WhatsApp shows it quoted). */
  | { kind: 'text'; body: string; replyTo?: string };

export type OutboundContent = { channel: 'whatsapp'; content: WhatsAppContent } | { channel: 'sms'; body: string };

/** Where an adapter delivers: the provider, or the local channel (the message is only stored; /dev/phone shows it). */
export type ChannelProvider = 'whatsapp-cloud-api' | 'twilio' | 'local';

/** What the provider said on accepting the message. */
export type ProviderAcceptance = { providerMessageId: string; status: 'sent' | 'queued' | 'accepted' };

/**
 * One channel's way out. `send` resolves when the provider accepted the message and throws a
 * ChannelSendError (passing or permanent) when it did not. `to` is E.164 (+ and digits).
 */
export type ChannelAdapter<Channel extends 'whatsapp' | 'sms' = 'whatsapp' | 'sms'> = {
  channel: Channel;
  provider: ChannelProvider;
  send: (message: { to: string } & Extract<OutboundContent, { channel: Channel }>) => Promise<ProviderAcceptance>;
};

export type ChannelAdapters = { whatsapp: ChannelAdapter<'whatsapp'>; sms: ChannelAdapter<'sms'> };
