/** The channels a patient can be reached on (browser-safe; src/db/schema.ts uses it for its columns). */
export const channels = ['sms', 'whatsapp', 'app', 'email'] as const;
export type Channel = (typeof channels)[number];

/** The channels' names as pages show them. */
export const channelLabels: Readonly<Record<Channel, string>> = { whatsapp: 'WhatsApp', sms: 'SMS', app: 'App', email: 'E-mail' };
