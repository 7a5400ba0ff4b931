/**
 * Which messaging the demo patients had during their year of history, so the message pages have a year of
 * realistic traffic and the adherence pages a baseline without messages: half the patients receive no
 * messages (usual care), a quarter the standard daily reminder (08:00, the comparator of the comparison
 * page), a quarter the weekly check-in (which asks for a reply, so the reply and opt-out analyses have
 * data). The mix is ours; the simulator runs all three as policies of one cohort with one seed. Daily
 * reminders are the bulk of all messages, which is why only a quarter get them: it keeps the first start
 * within its time budget on the embedded database.
 *
 * The programme is picked by a hash of the pseudonymous id: stable, and independent of the patient's traits.
 */
import { fnv1a32 } from '@/engine/hash/fnv1a';
import 'server-only';
import { createFixedDailyPolicy } from '@/engine/simulation/policies/fixed-daily-policy';
import { createFixedWeeklyPolicy } from '@/engine/simulation/policies/fixed-weekly-policy';
import type { MessagingPolicy } from '@/engine/policy/contract';
import { createNoMessagePolicy } from '@/engine/simulation/policies/no-message-policy';

export const demoProgrammes = ['fixed-daily', 'fixed-weekly', 'none'] as const;
export type DemoProgramme = (typeof demoProgrammes)[number];

export function demoProgrammeOf(patientId: string): DemoProgramme {
  const quarter = fnv1a32(patientId) % 4;
  return quarter === 0 ? 'fixed-daily' : quarter === 1 ? 'fixed-weekly' : 'none';
}

export function createDemoProgrammePolicy(): MessagingPolicy {
  const policies: Record<DemoProgramme, MessagingPolicy> = {
    'fixed-daily': createFixedDailyPolicy(),
    'fixed-weekly': createFixedWeeklyPolicy(),
    none: createNoMessagePolicy(),
  };
  const programmes = new Map<string, DemoProgramme>();
  return {
    name: 'demo-programmes',
    version: '1',
    decide: (context, random) => {
      let programme = programmes.get(context.patientId);
      if (programme === undefined) {
        programme = demoProgrammeOf(context.patientId);
        programmes.set(context.patientId, programme);
      }
      return policies[programme].decide(context, random);
    },
  };
}
