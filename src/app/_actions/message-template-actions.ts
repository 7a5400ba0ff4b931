'use server';

import { templateUpdateSchema, updateTemplate } from '@/features/message-templates';
import { authedAction } from '@/lib/server/authed-action';

// The use case checks the permission (admins only, refusals audited), the body against the engine and the
// version the editor opened.
export const updateTemplateAction = authedAction({
  schema: templateUpdateSchema,
  label: 'The template',
  run: (input, context) => updateTemplate({ ...context, ...input, now: new Date() }),
});
