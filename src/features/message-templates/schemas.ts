/**
 * The template library's shapes (decision 017): a stored template is one version of one template in one
 * language; every edit adds a version. Shared by the server, the page and its edit form (no server code here).
 */
import { z } from '@/lib/zod';
import {
  templateApprovalStatuses,
  templateLanguages,
  whatsAppCategories,
  type TemplateApprovalStatus,
  type TemplateLanguage,
  type TemplateValues,
  type WhatsAppCategory,
} from '@/engine/messaging';

/** The contract other features use (the send path): what is sent, and what WhatsApp knows it by. */
export type StoredTemplate = {
  templateId: string;
  language: TemplateLanguage;
  version: number;
  body: string;
  whatsApp: { name: string; language: string; category: WhatsAppCategory; approval: TemplateApprovalStatus };
};

/** One saved version, for the history (who saved it is an account id, never a patient). */
export type TemplateVersionDto = StoredTemplate & {
  editedBy: string | null;
  /** The editor's e-mail when the account still exists; null for the library's own first version. */
  editedByEmail: string | null;
  note: string | null;
  createdAt: string;
};

export type LibraryEntry = StoredTemplate & { versionCount: number; updatedAt: string };

/** What an admin may change; the WhatsApp name and language follow the template id and language. */
export const templateUpdateSchema = z.object({
  templateId: z
    .string({ error: 'Choose a template' })
    .trim()
    // The arms' templates, the survey invitation (decision 056) and its reminder (decision 065).
    .regex(/^([a-z-]+\.[a-z-]+\.\d{1,2}|survey\.invitation(-reminder)?)$/, { error: 'Not a template id (category.framing.variant)' }),
  language: z.enum(templateLanguages, { error: `Choose one of ${templateLanguages.join(', ')}` }),
  body: z.string({ error: 'Write the body' }).max(4000, { error: 'The body is longer than 4000 characters' }),
  approvalStatus: z.enum(templateApprovalStatuses, { error: `Choose one of ${templateApprovalStatuses.join(', ')}` }),
  whatsAppCategory: z.enum(whatsAppCategories, { error: `Choose one of ${whatsAppCategories.join(', ')}` }),
  note: z
    .string()
    .trim()
    .max(500, { error: 'The note is longer than 500 characters' })
    .optional()
    .transform((note) => (note === undefined || note === '' ? null : note)),
  expectedVersion: z.coerce
    .number({ error: 'The version being edited is missing' })
    .int({ error: 'The version being edited must be a whole number' })
    .min(1, { error: 'The version being edited must be 1 or more' }),
});

export type TemplateUpdateInput = z.input<typeof templateUpdateSchema>;
export type TemplateUpdate = z.output<typeof templateUpdateSchema>;

/** One of a persona's most received templates in the period. */
export type PersonaTopTemplate = {
  templateId: string;
  /** Messages of this template sent to the persona's patients in the period. */
  messages: number;
  /** Its share of all template messages the persona's patients received in the period (0–1). */
  share: number;
  /** Patients of the persona who received it at least once. */
  patients: number;
};

export type PersonaTopTemplates = {
  persona: string;
  /** Patients of the persona who received any template message in the period; null when suppressed. */
  patients: number | null;
  /** Template messages to them in the period; null when suppressed. */
  messages: number | null;
  /** True when the persona's group is too small to show to this viewer (then `top` is empty). */
  suppressed: boolean;
  top: PersonaTopTemplate[];
  /** Templates left out because fewer patients than the threshold received them (suppressed viewers only). */
  hiddenTemplates: number;
};

/**
 * The example record the page fills placeholders from, and says so: a medicine, a dose time and days of
 * supply left, as a patient's record holds them. Never a name: templates carry none.
 */
export const exampleRecord = { medicine: 'Metformin 500 mg', doseMinute: 8 * 60, daysOfSupplyLeft: 5 } as const satisfies TemplateValues;

/** A version rendered by the engine as the patient receives it (with the example record). */
export type TemplatePreview = {
  whatsApp: { text: string; buttons: string[] } | null;
  sms: { text: string; segments: number; encoding: string; keywords: { keyword: string; label: string }[] } | null;
  /** Why the template cannot be shown as sent (the engine refused it); null when it renders. */
  problem: string | null;
};
