/**
 * What a message can be: its category (what it is for) and its framing (how it says it). A policy's arm
 * is one category × framing pair, plus "no message".
 */

export const messageChannels = ['sms', 'whatsapp', 'app'] as const;
export type MessageChannel = (typeof messageChannels)[number];

export const messageCategories = ['reminder', 'refill', 'education', 'encouragement', 'check-in'] as const;
export type MessageCategory = (typeof messageCategories)[number];

/** neutral: plain; gain: what taking it brings; loss: what missing it risks; social: what others do. */
export const messageFramings = ['neutral', 'gain', 'loss', 'social'] as const;
export type MessageFraming = (typeof messageFramings)[number];

export type MessageArm = { category: MessageCategory; framing: MessageFraming };

export const armCount = messageCategories.length * messageFramings.length;

/** Dense index of an arm (0 … armCount − 1), for per-arm counters kept in typed arrays. */
export function armIndex(category: MessageCategory, framing: MessageFraming): number {
  return messageCategories.indexOf(category) * messageFramings.length + messageFramings.indexOf(framing);
}

/** Template variants per arm; the simulator rotates through them. */
export const templateVariantsPerArm = 3;

/** Stable template id, e.g. `reminder.gain.2`; the template library uses the same ids. */
export function templateId(arm: MessageArm, variant: number): string {
  return `${arm.category}.${arm.framing}.${variant}`;
}
