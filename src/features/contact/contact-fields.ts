/**
 * The contact form's fields, limits and answer, without zod: the form is in every page's shell, so what it
 * imports reaches every page's scripts (the validation that needs zod stays in schemas.ts, on the server).
 */
/** Bounds shared by the form (maxLength attributes) and the server's validation. */
export const contactFieldLimits = {
  contactName: 120,
  contactEmail: 254,
  contactNumber: 32,
  subject: 200,
  message: 5000,
} as const;

export const contactFieldLabels = {
  contactName: 'Your Name',
  contactEmail: 'Email',
  contactNumber: 'Phone Number',
  subject: 'Subject',
  message: 'Message',
} as const;

export type ContactField = keyof typeof contactFieldLabels;

/** What GET /api/contact-us answers (seed-spec §7: the client reads `success`). */
export type ContactResponse =
  { success: true } | { success: false; error: { code: string; message: string; fieldErrors?: Record<string, string> } };
