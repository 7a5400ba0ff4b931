import { z } from '@/lib/zod';

import { type ContactField, contactFieldLabels, contactFieldLimits } from './contact-fields';

export { type ContactField, type ContactResponse, contactFieldLabels, contactFieldLimits } from './contact-fields';

function requiredText(field: ContactField) {
  const label = contactFieldLabels[field];
  return z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(contactFieldLimits[field], `${label} must be at most ${contactFieldLimits[field]} characters.`);
}

// Digits with the separators people type; 7 to 15 digits as E.164 allows.
const phonePattern = /^\+?[0-9 ().-]+$/;

export const contactMessageSchema = z.object({
  contactName: requiredText('contactName'),
  contactEmail: requiredText('contactEmail').pipe(z.email('Email must be a valid e-mail address.')),
  contactNumber: z
    .string()
    .trim()
    .max(contactFieldLimits.contactNumber, `Phone Number must be at most ${contactFieldLimits.contactNumber} characters.`)
    .optional()
    .transform((value) => (value === '' ? undefined : value))
    .refine(
      (value) => {
        if (value === undefined) return true;
        const digits = value.replace(/\D/g, '').length;
        return phonePattern.test(value) && digits >= 7 && digits <= 15;
      },
      { message: 'Phone Number must be a phone number of 7 to 15 digits, for example +44 20 7946 0958.' },
    ),
  subject: requiredText('subject'),
  message: requiredText('message'),
});

export type ContactMessageInput = z.infer<typeof contactMessageSchema>;
