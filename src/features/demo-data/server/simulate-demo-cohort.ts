/**
 * Runs the simulator for the demo dataset and keeps what it produces in compact columns (numbers and
 * shared strings rather than one object per record), ready to be written in batches. The simulation is
 * synchronous, so its records are held until it ends: about a million for 2,000 patients, some tens of MB.
 */
import 'server-only';
import type { CohortSummary } from '@/engine/simulation/cohort-summary';
import { demoProducts } from '@/engine/simulation/demo-catalogue';
import { messageCategories, messageChannels, messageFramings, type MessageChannel } from '@/engine/policy/message-arms';
import type { DoseStatus, MessageStatus, SimulatedPatient } from '@/engine/simulation/records';
import { simulateCohort } from '@/engine/simulation/simulate-cohort';
import { createDemoProgrammePolicy } from './demo-programme-policy';
import { createLocalTimeConverter } from '@/engine/time/local-day';

export const storedDoseStatuses = ['taken', 'missed', 'skipped'] as const satisfies readonly DoseStatus[];
export const messageStatuses = ['sent', 'delivered', 'read', 'failed'] as const satisfies readonly MessageStatus[];
export const messageDirections = ['outbound', 'inbound'] as const;

const productIndexes = new Map(demoProducts.map((product, index) => [product.id, index]));

export type DemoCohort = {
  patients: SimulatedPatient[];
  /** Channels on which each patient replied STOP (by patient index). */
  optedOutChannels: Map<number, Set<MessageChannel>>;
  /** Per patient: the day after the last day their dispensed supply covers (ignoring stockpiling). */
  suppliedUntilDay: number[];
  dispensings: { patient: number[]; product: number[]; day: number[]; daysSupply: number[]; quantity: number[]; sequence: number[] };
  /** Doses someone observed (taken, missed or skipped); times in Unix epoch minutes, -1 when not confirmed. */
  doseEvents: { patient: number[]; product: number[]; scheduledAt: number[]; confirmedAt: number[]; status: number[]; sequence: number[] };
  messages: {
    id: string[];
    patient: number[];
    channel: number[];
    direction: number[];
    category: number[];
    /** -1 for inbound messages. */
    framing: number[];
    templateId: (string | null)[];
    replyText: (string | null)[];
    /** The message's status changes are entries [firstChange, firstChange + changeCount) of `changes`. */
    firstChange: number[];
    changeCount: number[];
  };
  changes: { status: number[]; at: number[] };
  summary: CohortSummary;
};

export function simulateDemoCohort(options: { patientCount: number; days: number; seed: number; startDay: number }): DemoCohort {
  const toEpochSeconds = createLocalTimeConverter();
  const cohort: Omit<DemoCohort, 'summary'> = {
    patients: [],
    optedOutChannels: new Map(),
    suppliedUntilDay: [],
    dispensings: { patient: [], product: [], day: [], daysSupply: [], quantity: [], sequence: [] },
    doseEvents: { patient: [], product: [], scheduledAt: [], confirmedAt: [], status: [], sequence: [] },
    messages: {
      id: [],
      patient: [],
      channel: [],
      direction: [],
      category: [],
      framing: [],
      templateId: [],
      replyText: [],
      firstChange: [],
      changeCount: [],
    },
    changes: { status: [], at: [] },
  };
  const patientIndexes = new Map<string, number>();
  const dispensingCounts: number[] = [];
  const doseEventCounts: number[] = [];
  const epochMinute = (patient: number, day: number, minute: number) =>
    toEpochSeconds(cohort.patients[patient]!.timezone, day, minute) / 60;

  const summary = simulateCohort({
    patientCount: options.patientCount,
    days: options.days,
    seed: options.seed,
    startDay: options.startDay,
    policy: createDemoProgrammePolicy(),
    sink: {
      patient: (patient) => {
        patientIndexes.set(patient.id, cohort.patients.length);
        cohort.patients.push(patient);
        cohort.suppliedUntilDay.push(Number.NEGATIVE_INFINITY);
        dispensingCounts.push(0);
        doseEventCounts.push(0);
      },
      dispensing: (record) => {
        const patient = patientIndexes.get(record.patientId)!;
        const { dispensings } = cohort;
        dispensings.patient.push(patient);
        dispensings.product.push(productIndexes.get(record.productId) ?? -1);
        dispensings.day.push(record.day);
        dispensings.daysSupply.push(record.daysSupply);
        dispensings.quantity.push(record.quantity);
        dispensingCounts[patient] = (dispensingCounts[patient] ?? 0) + 1;
        dispensings.sequence.push(dispensingCounts[patient]!);
        cohort.suppliedUntilDay[patient] = Math.max(cohort.suppliedUntilDay[patient] ?? 0, record.day + record.daysSupply);
      },
      doseEvent: (record) => {
        const patient = patientIndexes.get(record.patientId)!;
        doseEventCounts[patient] = (doseEventCounts[patient] ?? 0) + 1;
        // "unknown" means nobody reported the dose: the product infers it from the regimen, no source sends it.
        const status = (storedDoseStatuses as readonly string[]).indexOf(record.status);
        if (status < 0) return;
        const { doseEvents } = cohort;
        doseEvents.patient.push(patient);
        doseEvents.product.push(productIndexes.get(record.productId) ?? -1);
        doseEvents.scheduledAt.push(epochMinute(patient, record.scheduledDay, record.scheduledMinute));
        doseEvents.confirmedAt.push(
          record.confirmedDay === null || record.confirmedMinute === null
            ? -1
            : epochMinute(patient, record.confirmedDay, record.confirmedMinute),
        );
        doseEvents.status.push(status);
        doseEvents.sequence.push(doseEventCounts[patient]!);
      },
      message: (record) => {
        const patient = patientIndexes.get(record.patientId)!;
        const { messages, changes } = cohort;
        messages.id.push(record.id);
        messages.patient.push(patient);
        messages.channel.push(messageChannels.indexOf(record.channel));
        messages.direction.push(messageDirections.indexOf(record.direction));
        messages.category.push(messageCategories.indexOf(record.category));
        messages.framing.push(record.framing === null ? -1 : messageFramings.indexOf(record.framing));
        messages.templateId.push(record.templateId);
        messages.replyText.push(record.replyText);
        messages.firstChange.push(changes.status.length);
        messages.changeCount.push(record.statusHistory.length);
        for (const change of record.statusHistory) {
          changes.status.push(messageStatuses.indexOf(change.status));
          changes.at.push(epochMinute(patient, change.day, change.minute));
        }
        if (record.replyIntent === 'stop') {
          const channels = cohort.optedOutChannels.get(patient) ?? new Set<MessageChannel>();
          channels.add(record.channel);
          cohort.optedOutChannels.set(patient, channels);
        }
      },
    },
  });
  return { ...cohort, summary };
}
