import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computePdc, type PdcFill } from '@/engine/adherence/pdc';
import { findDemoProduct } from './demo-catalogue';
import { messageCategories, messageFramings } from '@/engine/policy/message-arms';
import type { MessagingPolicy, PolicyFeedback } from '@/engine/policy/contract';
import { createPolicy, policyNames, type PolicyName } from './policies/policy-registry';
import type { Dispensing, DoseEvent, Message, SimulatedPatient } from './records';
import { simulateCohort, type SimulationOptions } from './simulate-cohort';

const startDay = 20_089; // 2025-01-01

type Collected = { patients: SimulatedPatient[]; dispensings: Dispensing[]; doseEvents: DoseEvent[]; messages: Message[] };

function run(options: Partial<SimulationOptions> & { policyName?: PolicyName }) {
  const collected: Collected = { patients: [], dispensings: [], doseEvents: [], messages: [] };
  const summary = simulateCohort({
    patientCount: 40,
    days: 60,
    seed: 1,
    startDay,
    policy: createPolicy(options.policyName ?? 'fixed-daily'),
    ...options,
    sink: {
      patient: (patient) => collected.patients.push(patient),
      dispensing: (dispensing) => collected.dispensings.push(dispensing),
      doseEvent: (event) => collected.doseEvents.push(event),
      message: (message) => collected.messages.push(message),
    },
  });
  return { summary, collected };
}

function fingerprint(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

describe('simulateCohort determinism', () => {
  it('gives identical records and summary for the same seed, and different ones for another seed', () => {
    const first = run({ seed: 7 });
    const again = run({ seed: 7 });
    const other = run({ seed: 8 });
    expect(fingerprint(again)).toBe(fingerprint(first));
    expect(fingerprint(other.collected)).not.toBe(fingerprint(first.collected));
    expect(other.summary.meanPdc).not.toBe(first.summary.meanPdc);
  });

  it('simulates the same patients whatever the policy', () => {
    const patients = policyNames.map((policyName) => fingerprint(run({ policyName, seed: 3 }).collected.patients));
    expect(new Set(patients).size).toBe(1);
  });

  it('produces the same records whether it runs the cohort day by day (learning policies) or patient by patient', () => {
    const dailyReminder = createPolicy('fixed-daily');
    // A learn hook makes the simulator advance the whole cohort one day at a time.
    const learningDailyReminder: MessagingPolicy = { ...dailyReminder, learn: () => undefined };
    const patientByPatient = run({ policy: dailyReminder, seed: 5 });
    const dayByDay = run({ policy: learningDailyReminder, seed: 5 });
    const sorted = (collected: Collected) => ({
      dispensings: collected.dispensings.map((record) => JSON.stringify(record)).sort(),
      doseEvents: collected.doseEvents.map((record) => JSON.stringify(record)).sort(),
      messages: collected.messages.map((record) => JSON.stringify(record)).sort(),
    });
    expect(sorted(dayByDay.collected)).toEqual(sorted(patientByPatient.collected));
    expect(dayByDay.summary).toEqual(patientByPatient.summary);
  });
});

/** The records of a run whose simulated day is before `dayIndex` (a reply belongs to the day of the message it answers). */
function recordsBefore(collected: Collected, dayIndex: number) {
  const end = startDay + dayIndex;
  const outboundDay = new Map(
    collected.messages.filter((message) => message.direction === 'outbound').map((message) => [message.id, message.day]),
  );
  return {
    patients: collected.patients,
    dispensings: collected.dispensings.filter((record) => record.day < end),
    doseEvents: collected.doseEvents.filter((record) => record.scheduledDay < end),
    messages: collected.messages.filter(
      (record) => (record.inReplyToId === null ? record.day : outboundDay.get(record.inReplyToId)!) < end,
    ),
  };
}

describe('a longer run', () => {
  it.each(['fixed-daily', 'fixed-weekly', 'personalised'] as const)(
    'reproduces every record of the shorter run’s days exactly (%s): a history can be continued',
    (policyName) => {
      const year = run({ policyName, seed: 11, days: 365, patientCount: 16 });
      const longer = run({ policyName, seed: 11, days: 449, patientCount: 16 });
      expect(fingerprint(recordsBefore(longer.collected, 365))).toBe(fingerprint(year.collected));
      // …and it did go on: records after the year exist.
      expect(longer.collected.doseEvents.length).toBeGreaterThan(year.collected.doseEvents.length);
    },
  );
});

describe('stepDailyFrom', () => {
  /** A policy that sends the daily reminder, then from `from` on the personalised policy, which learns daily. */
  function switchingPolicy(from: number): MessagingPolicy & { days: number[] } {
    const before = createPolicy('fixed-daily');
    const after = createPolicy('personalised');
    const days: number[] = [];
    return {
      name: 'switching',
      version: '1',
      days,
      decide: (context, random) => (context.dayIndex < from ? before : after).decide(context, random),
      learn: (feedback) => {
        if (feedback.context.dayIndex >= from) after.learn?.(feedback);
      },
      endDay: (dayIndex) => {
        days.push(dayIndex);
        if (dayIndex >= from) after.endDay?.(dayIndex);
      },
    };
  }
  const sorted = (collected: Collected) => ({
    patients: collected.patients.map((record) => JSON.stringify(record)),
    dispensings: collected.dispensings.map((record) => JSON.stringify(record)).sort(),
    doseEvents: collected.doseEvents.map((record) => JSON.stringify(record)).sort(),
    messages: collected.messages.map((record) => JSON.stringify(record)).sort(),
  });

  it('gives the same records as stepping every day, for a policy that learns only from that day on', () => {
    const everyDay = switchingPolicy(30);
    const fromDay30 = switchingPolicy(30);
    const inStep = run({ policy: everyDay, seed: 4, days: 45 });
    const stepped = run({ policy: fromDay30, seed: 4, days: 45, stepDailyFrom: 30 });
    expect(sorted(stepped.collected)).toEqual(sorted(inStep.collected));
    expect(stepped.summary).toEqual(inStep.summary);
    // The days before run as one stretch: one endDay for its last day, then one a day.
    expect(fromDay30.days).toEqual(Array.from({ length: 16 }, (_, index) => 29 + index));
    expect(everyDay.days).toEqual(Array.from({ length: 45 }, (_, index) => index));
  });

  it('runs a policy that does not learn patient by patient whatever it says, and refuses a fraction', () => {
    expect(sorted(run({ seed: 4, days: 20, stepDailyFrom: 10 }).collected)).toEqual(sorted(run({ seed: 4, days: 20 }).collected));
    expect(() => run({ days: 10, stepDailyFrom: 2.5, policy: switchingPolicy(2) })).toThrow(/stepDailyFrom/);
  });
});

describe('simulated records', () => {
  it('keep the invariants of the data model for any seed and policy', () => {
    fc.assert(
      fc.property(fc.nat(), fc.constantFrom(...policyNames), fc.integer({ min: 1, max: 120 }), (seed, policyName, days) => {
        const { collected, summary } = run({ seed, policyName, days, patientCount: 12 });
        const patients = new Map(collected.patients.map((patient) => [patient.id, patient]));
        expect(patients.size).toBe(12);

        for (const dispensing of collected.dispensings) {
          const patient = patients.get(dispensing.patientId);
          expect(patient?.productIds).toContain(dispensing.productId);
          expect([30, 90]).toContain(dispensing.daysSupply);
          expect(dispensing.quantity).toBeGreaterThan(0);
          expect(Number.isInteger(dispensing.quantity)).toBe(true);
          expect(dispensing.day).toBeLessThan(startDay + days);
          expect(dispensing.source).toBe('simulation');
        }

        for (const event of collected.doseEvents) {
          const patient = patients.get(event.patientId);
          expect(patient?.productIds).toContain(event.productId);
          expect(event.source).toBe(patient?.doseObserver);
          expect(event.scheduledDay).toBeGreaterThanOrEqual(startDay);
          expect(event.scheduledDay).toBeLessThan(startDay + days);
          expect(event.scheduledMinute).toBeGreaterThanOrEqual(0);
          expect(event.scheduledMinute).toBeLessThan(1440);
          // A confirmation time exactly when the dose was confirmed taken.
          expect(event.confirmedDay !== null).toBe(event.status === 'taken');
          expect(event.confirmedMinute !== null).toBe(event.status === 'taken');
          if (event.source === 'smart-bottle') expect(['taken', 'missed']).toContain(event.status);
          else expect(['taken', 'skipped', 'unknown']).toContain(event.status);
        }
        // Each product's scheduled doses per day: one per dose occasion.
        const eventsPerPatient = new Map<string, number>();
        for (const event of collected.doseEvents) eventsPerPatient.set(event.patientId, (eventsPerPatient.get(event.patientId) ?? 0) + 1);
        for (const patient of collected.patients) {
          const expectedPerDay = patient.productIds.reduce(
            (sum, productId) => sum + (findDemoProduct(productId)?.doseOccasions.length ?? 0),
            0,
          );
          expect(eventsPerPatient.get(patient.id)).toBe(expectedPerDay * days);
        }

        const outbound = new Map<string, Message>();
        const optedOutAt = new Map<string, number>();
        for (const message of collected.messages) {
          const history = message.statusHistory.map((change) => change.status);
          if (message.direction === 'outbound') {
            outbound.set(message.id, message);
            expect(optedOutAt.has(message.patientId)).toBe(false);
            expect(messageCategories).toContain(message.category);
            expect(messageFramings).toContain(message.framing);
            expect(message.templateId).toMatch(/^[a-z-]+\.[a-z]+\.\d$/);
            expect(history[0]).toBe('sent');
            expect(history.includes('failed')).toBe(!history.includes('delivered'));
            if (message.channel === 'sms') expect(history).not.toContain('read');
            expect(patients.get(message.patientId)?.consent[message.channel]).toBe(true);
          } else {
            const answered = outbound.get(message.inReplyToId ?? '');
            expect(answered).toBeDefined();
            expect(answered?.replyText).toBe(message.replyText);
            expect(message.replyText).not.toBe('');
            expect(message.day * 1440 + message.minute).toBeGreaterThanOrEqual((answered?.day ?? 0) * 1440 + (answered?.minute ?? 0));
            if (message.replyIntent === 'stop') {
              expect(message.replyText).toBe('STOP');
              optedOutAt.set(message.patientId, message.day);
            }
          }
        }
        if (policyName === 'none') expect(collected.messages).toHaveLength(0);
        expect(summary.optOutRate).toBeCloseTo(optedOutAt.size / 12, 12);
        expect(summary.messagesPerPatient).toBeCloseTo(outbound.size / 12, 12);
      }),
      { numRuns: 40 },
    );
  });

  it('reports the PQA PDC of its own dispensings, averaged over each patient’s products', () => {
    const days = 180;
    const { collected, summary } = run({ days, patientCount: 60, seed: 21 });
    const fillsByPatient = new Map<string, Map<string, PdcFill[]>>();
    for (const dispensing of collected.dispensings) {
      const byProduct = fillsByPatient.get(dispensing.patientId) ?? new Map<string, PdcFill[]>();
      byProduct.set(dispensing.productId, [
        ...(byProduct.get(dispensing.productId) ?? []),
        { day: dispensing.day, daysSupply: dispensing.daysSupply, drug: dispensing.productId },
      ]);
      fillsByPatient.set(dispensing.patientId, byProduct);
    }
    const patientPdc = [...fillsByPatient.values()].map((byProduct) => {
      const perProduct = [...byProduct.values()].map(
        (fills) => computePdc({ fills, periodStart: startDay, periodEnd: startDay + days }).pdc,
      );
      return perProduct.reduce((sum, pdc) => sum + pdc, 0) / perProduct.length;
    });
    expect(patientPdc).toHaveLength(60);
    expect(summary.meanPdc).toBeCloseTo(patientPdc.reduce((sum, pdc) => sum + pdc, 0) / 60, 12);
    expect(summary.shareAdherent).toBeCloseTo(patientPdc.filter((pdc) => pdc >= 0.8).length / 60, 12);
    expect(summary.shareAdherentByMonth).toHaveLength(5);
  });

  it('sends a daily reminder every day until a patient opts out', () => {
    const { collected, summary } = run({ days: 90, patientCount: 80, seed: 2 });
    for (const patient of collected.patients) {
      const sent = collected.messages.filter((message) => message.patientId === patient.id && message.direction === 'outbound');
      const stopped = collected.messages.some((message) => message.patientId === patient.id && message.replyIntent === 'stop');
      if (!stopped) expect(sent).toHaveLength(90);
      expect(new Set(sent.map((message) => message.day)).size).toBe(sent.length);
    }
    expect(summary.repliesPerPatient).toBeGreaterThan(0);
  });

  it('observes doses through the app, WhatsApp replies and smart bottles', () => {
    const { collected } = run({ days: 60, patientCount: 300, seed: 4 });
    const confirmedBy = new Set(collected.doseEvents.filter((event) => event.status === 'taken').map((event) => event.source));
    expect([...confirmedBy].sort()).toEqual(['app', 'smart-bottle', 'whatsapp']);
    const whatsappConfirmations = collected.doseEvents.filter((event) => event.status === 'taken' && event.source === 'whatsapp');
    const replies = new Set(
      collected.messages.filter((message) => message.replyIntent === 'taken').map((message) => `${message.patientId}@${message.day}`),
    );
    for (const event of whatsappConfirmations) expect(replies.has(`${event.patientId}@${event.confirmedDay}`)).toBe(true);
  });
});

describe('learning-policy interface', () => {
  it('drives a randomised policy and feeds back every decision with its propensity', () => {
    const arms = messageCategories.flatMap((category) => messageFramings.map((framing) => ({ category, framing })));
    const feedback: PolicyFeedback[] = [];
    const policy: MessagingPolicy = {
      name: 'uniform-random',
      version: 'test',
      decide: (context, random) => {
        if (random() < 0.5) return { kind: 'no-message', propensity: 0.5 };
        const arm = arms[Math.floor(random() * arms.length)]!;
        return { kind: 'message', arm, minuteOfDay: context.firstDoseMinute - 30, propensity: 0.5 / arms.length };
      },
      learn: (entry) => feedback.push(entry),
    };
    const { collected } = run({ policy, days: 30, patientCount: 20, seed: 6 });
    const outbound = collected.messages.filter((message) => message.direction === 'outbound');
    // Every decision before an opt-out gets feedback, in day order across the cohort.
    expect(feedback.length).toBeGreaterThan(500);
    expect(feedback.filter((entry) => entry.choice.kind === 'message')).toHaveLength(outbound.length);
    for (let index = 1; index < feedback.length; index += 1)
      expect(feedback[index]!.context.dayIndex).toBeGreaterThanOrEqual(feedback[index - 1]!.context.dayIndex);
    for (const entry of feedback) {
      expect(entry.reward).toBeGreaterThanOrEqual(0);
      expect(entry.reward).toBeLessThanOrEqual(1);
      expect(entry.outcome.dosesTaken).toBeLessThanOrEqual(entry.outcome.dosesScheduled);
      expect(entry.outcome.dosesConfirmed).toBeLessThanOrEqual(entry.outcome.dosesTaken);
      expect(entry.outcome.delivered === null).toBe(entry.choice.kind === 'no-message');
      expect(entry.context.messageCounts.last7Days).toBeLessThanOrEqual(7);
    }
    expect(new Set(outbound.map((message) => message.templateId?.split('.')[0])).size).toBe(messageCategories.length);
  });

  it('rejects impossible cohorts with a message naming the option', () => {
    const policy = createPolicy('none');
    expect(() => simulateCohort({ patientCount: 0, days: 10, seed: 1, startDay, policy })).toThrow(/patientCount/);
    expect(() => simulateCohort({ patientCount: 1, days: 0, seed: 1, startDay, policy })).toThrow(/days/);
    expect(() => simulateCohort({ patientCount: 1, days: 10, seed: -1, startDay, policy })).toThrow(/seed/);
    expect(() => simulateCohort({ patientCount: 1, days: 10, seed: 1.5, startDay, policy })).toThrow(/seed/);
  });
});
