import { z } from '@/lib/zod';
import { appDoseAnswers } from './dose-answer-rules';

/** A patient's answer about one of today's doses, as the home page sends it. */
export const doseAnswerInputSchema = z.object({
  productId: z.string({ error: 'productId: choose the medicine.' }).min(1).max(200),
  scheduledAt: z.iso.datetime({ offset: true, error: 'scheduledAt: the dose time is not a valid time.' }),
  answer: z.enum(appDoseAnswers, { error: 'answer: answer taken or skipped.' }),
});

export const undoDoseAnswerInputSchema = z.object({ doseEventId: z.uuid({ error: 'doseEventId: the answer to take back is not valid.' }) });
