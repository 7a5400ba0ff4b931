import { z } from '@/lib/zod';
import { messagingProgrammes, type MessagingProgramme } from '@/lib/domain/messaging-programmes';

/** Enrol (a programme), switch, or take out of live messaging (null). */
export const messagingProgrammeChangeSchema = z.object({
  patientId: z.string().uuid({ message: 'patientId must be a patient id.' }),
  programme: z.enum(messagingProgrammes, { message: `programme must be one of ${messagingProgrammes.join(', ')}, or null.` }).nullable(),
});

export type MessagingEnrolmentDto = { patientId: string; programme: MessagingProgramme | null };
