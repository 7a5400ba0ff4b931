/**
 * Runs the simulator for the demo dataset and keeps what it produces in compact columns (numbers and
 * shared strings rather than one object per record), ready to be written in batches. The simulation is
 * synchronous, so its records are held until it ends: about a million for 2,000 patients, some tens of MB.
 *
 * With a trial, the run goes on past the history for the trial's days (one run: every patient's random
 * streams are their own, so the history's days come out exactly as in a run of the history alone): the
 * allocation is made from the history when its last day ends, and from the next day only the participants'
 * records are kept, under their arms' policies (demo-trial-policy.ts).
 */
import 'server-only';
import type { CohortSummary } from '@/engine/simulation/cohort-summary';
import { demoProducts } from '@/engine/simulation/demo-catalogue';
import { messageCategories, messageChannels, messageFramings, type MessageChannel } from '@/engine/policy/message-arms';
import type { DoseStatus, MessageStatus, SimulatedPatient } from '@/engine/simulation/records';
import { simulateCohort } from '@/engine/simulation/simulate-cohort';
import type { TrialArm } from '@/engine/trial/allocation-sequence';
import { createDemoProgrammePolicy } from './demo-programme-policy';
import { allocateDemoTrial, type DemoTrialAllocation } from './demo-trial-allocation';
import { createDemoTrialPolicy } from './demo-trial-policy';
import { createLocalTimeConverter } from '@/engine/time/local-day';

export const storedDoseStatuses = ['taken', 'missed', 'skipped'] as const satisfies readonly DoseStatus[];
export const messageStatuses = ['sent', 'delivered', 'read', 'failed'] as const satisfies readonly MessageStatus[];
export const messageDirections = ['outbound', 'inbound'] as const;

const productIndexes = new Map(demoProducts.map((product, index) => [product.id, index]));

export type DemoCohort = {
  patients: SimulatedPatient[];
  /** Channels on which each patient replied STOP during the history (by patient index). */
  optedOutChannels: Map<number, Set<MessageChannel>>;
  /** Per patient: the day after the last day their dispensed supply covers (ignoring stockpiling), as of the end of the history. */
  suppliedUntilDay: number[];
  /** Per patient: the last day of the history with a dose confirmed taken (-Infinity when none). */
  lastTakenDay: number[];
  /** The trial cohort's screening and randomisation; null without a trial. */
  trial: DemoTrial | null;
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
  /** The simulator's summary of the whole run (history and trial days, all patients). */
  summary: CohortSummary;
};

export type DemoTrial = DemoTrialAllocation & {
  startDay: number;
  days: number;
  /** Participants who replied STOP during the trial: the day of the first STOP, by patient index. */
  stopReplyDay: Map<number, number>;
  /** Per participant (by patient index), over the trial's days: doses scheduled and doses confirmed taken. */
  doses: Map<number, { scheduled: number; confirmed: number }>;
  /** The personalised policy's version when the trial ended: its prior's (1) plus one per daily update. */
  personalisedVersion: string;
};

export type SimulateDemoCohortOptions = {
  patientCount: number;
  /** Days of history. */
  days: number;
  seed: number;
  startDay: number;
  /** Trial cohort A, from the day after the history: its length in days and its target enrolment. */
  trial?: { days: number; size: number };
};

export function simulateDemoCohort(options: SimulateDemoCohortOptions): DemoCohort {
  const toEpochSeconds = createLocalTimeConverter();
  const cohort: Omit<DemoCohort, 'summary'> = {
    patients: [],
    optedOutChannels: new Map(),
    suppliedUntilDay: [],
    lastTakenDay: [],
    trial: null,
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

  const trialStartDay = options.startDay + options.days;
  /** Per patient: the day of their latest outbound message. */
  const outboundDay: number[] = [];
  const trialDays = options.trial?.days ?? 0;
  let trialArms: ReadonlyMap<number, TrialArm> = new Map();
  const stopReplyDay = new Map<number, number>();
  const trialDoses = new Map<number, { scheduled: number; confirmed: number }>();
  /** Whether to keep a record of this patient on this day: all of the history, then only the participants'. */
  const kept = (patient: number, day: number) => day < trialStartDay || trialArms.has(patient);
  const trialPolicy =
    options.trial === undefined
      ? null
      : createDemoTrialPolicy({
          trialStartDayIndex: options.days,
          allocate: () => {
            const size = options.trial?.size ?? 0;
            cohort.trial = {
              ...allocateDemoTrial({ history: cohort, trialSize: size, seed: options.seed, trialStartDay }),
              startDay: trialStartDay,
              days: trialDays,
              stopReplyDay,
              doses: trialDoses,
              personalisedVersion: '0',
            };
            trialArms = cohort.trial.arms;
            for (const patient of trialArms.keys()) trialDoses.set(patient, { scheduled: 0, confirmed: 0 });
            return new Map([...trialArms].map(([patient, arm]) => [cohort.patients[patient]!.id, arm]));
          },
        });

  const summary = simulateCohort({
    patientCount: options.patientCount,
    days: options.days + trialDays,
    seed: options.seed,
    startDay: options.startDay,
    policy: trialPolicy ?? createDemoProgrammePolicy(),
    // The history needs no day-by-day stepping: the learning policy starts with the trial.
    stepDailyFrom: options.days,
    sink: {
      patient: (patient) => {
        patientIndexes.set(patient.id, cohort.patients.length);
        cohort.patients.push(patient);
        cohort.suppliedUntilDay.push(Number.NEGATIVE_INFINITY);
        cohort.lastTakenDay.push(Number.NEGATIVE_INFINITY);
        dispensingCounts.push(0);
        doseEventCounts.push(0);
      },
      dispensing: (record) => {
        const patient = patientIndexes.get(record.patientId)!;
        if (!kept(patient, record.day)) return;
        const { dispensings } = cohort;
        dispensings.patient.push(patient);
        dispensings.product.push(productIndexes.get(record.productId) ?? -1);
        dispensings.day.push(record.day);
        dispensings.daysSupply.push(record.daysSupply);
        dispensings.quantity.push(record.quantity);
        dispensingCounts[patient] = (dispensingCounts[patient] ?? 0) + 1;
        dispensings.sequence.push(dispensingCounts[patient]!);
        if (record.day < trialStartDay)
          cohort.suppliedUntilDay[patient] = Math.max(cohort.suppliedUntilDay[patient] ?? 0, record.day + record.daysSupply);
      },
      doseEvent: (record) => {
        const patient = patientIndexes.get(record.patientId)!;
        if (!kept(patient, record.scheduledDay)) return;
        const doses = record.scheduledDay >= trialStartDay ? trialDoses.get(patient) : undefined;
        if (doses !== undefined) {
          doses.scheduled += 1;
          if (record.status === 'taken') doses.confirmed += 1;
        }
        doseEventCounts[patient] = (doseEventCounts[patient] ?? 0) + 1;
        if (record.status === 'taken' && record.scheduledDay < trialStartDay)
          cohort.lastTakenDay[patient] = Math.max(cohort.lastTakenDay[patient] ?? Number.NEGATIVE_INFINITY, record.scheduledDay);
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
        // A reply belongs to the day of the message it answers (it may arrive after midnight).
        if (record.direction === 'outbound') outboundDay[patient] = record.day;
        const day = outboundDay[patient] ?? record.day;
        if (!kept(patient, day)) return;
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
        if (record.replyIntent === 'stop' && day >= trialStartDay) {
          if (!stopReplyDay.has(patient)) stopReplyDay.set(patient, record.day);
        } else if (record.replyIntent === 'stop') {
          const channels = cohort.optedOutChannels.get(patient) ?? new Set<MessageChannel>();
          channels.add(record.channel);
          cohort.optedOutChannels.set(patient, channels);
        }
      },
    },
  });
  if (cohort.trial !== null && trialPolicy !== null) cohort.trial.personalisedVersion = trialPolicy.personalisedVersion();
  return { ...cohort, summary };
}
