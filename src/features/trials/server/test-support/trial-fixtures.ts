/**
 * Test support (not imported by application code): a small trial of four participants whose dose,
 * refill and message records follow known patterns, so the outcomes can be asserted exactly.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { dispensings, doseEvents, messages, patients, policyDecisions, regimens, trialEnrolments, trials } from '@/db/schema';
import { dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence/day-number';
import type { SessionUser } from '@/lib/server/session';

export const enrolledOn = '2026-01-12';
const enrolledDay = dayNumberFromIso(enrolledOn);
/** Follow-up is days [12 Jan, 6 Apr): complete from 6 April. */
export const afterFollowUp = new Date('2026-04-06T12:00:00Z');
/** Day 15: weeks 1 and 2 are over. */
export const duringFollowUp = new Date('2026-01-27T12:00:00Z');
export const viewer = (role: SessionUser['role']) => ({ id: `${role}-1`, role });

export type Participant = {
  pseudonym: string;
  arm: 'control' | 'intervention';
  timezone: string | null;
  regimenStart: string;
  /** Doses confirmed taken on a follow-up day (offset from enrolment, 0–83), or before (negative offsets). */
  taken: (offset: number) => number;
};

/** Two doses a day at 13:00 and 22:00 UTC (the same local day in UTC and New York). */
const doseInstant = (offset: number, dose: number) =>
  new Date(`${isoFromDayNumber(enrolledDay + offset)}T${dose === 0 ? '13' : '22'}:00:00Z`);

export const participants: Participant[] = [
  {
    // Week 1: 3 of 14 (2 on day 0, 1 on day 3); weeks 2–12 every dose. Baseline: one dose a day.
    pseudonym: '+A-001',
    arm: 'intervention',
    timezone: 'America/New_York',
    regimenStart: '2025-06-01',
    taken: (offset) => (offset < 0 ? 1 : offset === 0 ? 2 : offset === 3 ? 1 : offset < 7 ? 0 : 2),
  },
  {
    // Regimen from enrolment (no baseline); nothing in weeks 1–2 (a gap ending on day 7), then every dose.
    pseudonym: 'B-002',
    arm: 'control',
    timezone: null,
    regimenStart: enrolledOn,
    taken: (offset) => (offset < 14 ? 0 : 2),
  },
  { pseudonym: 'C-003', arm: 'intervention', timezone: 'UTC', regimenStart: '2025-06-01', taken: () => 2 },
  {
    // Half the doses throughout; baseline one dose every other day (0.25).
    pseudonym: 'D-004',
    arm: 'control',
    timezone: 'Europe/London',
    regimenStart: '2025-06-01',
    taken: (offset) => (offset < 0 ? (offset % 2 === 0 ? 1 : 0) : 1),
  },
];

export async function insertTrial(database: Database, options: { id: string; enrolledOn: string; people: Participant[] }) {
  await database.insert(trials).values({
    id: options.id,
    name: `Trial ${options.id}`,
    startDate: options.enrolledOn,
    weeks: 12,
    targetEnrolment: options.people.length,
  });
  const offsetDay = dayNumberFromIso(options.enrolledOn) - enrolledDay;
  for (const person of options.people) {
    const [patient] = await database
      .insert(patients)
      .values({
        pseudonym: options.id === 't1' ? person.pseudonym : `${options.id}-${person.pseudonym}`,
        source: 'test',
        sourceRecordId: `${options.id}-${person.pseudonym}`,
        timezone: person.timezone,
        persona: person.arm === 'control' ? 'busy' : 'forgetful',
        ageBand: '65-74',
        sex: 'F',
        conditions: ['hypertension'],
      })
      .returning({ id: patients.id });
    const patientId = patient!.id;
    await database.insert(regimens).values({
      patientId,
      dosesPerDay: 2,
      startDate: isoFromDayNumber(dayNumberFromIso(person.regimenStart) + offsetDay),
      source: 'test',
      sourceRecordId: `${options.id}-${person.pseudonym}`,
    });
    const doses: (typeof doseEvents.$inferInsert)[] = [];
    for (let offset = -84; offset < 84; offset += 1) {
      for (let dose = 0; dose < 2; dose += 1) {
        const taken = dose < person.taken(offset);
        // Recorded misses and unknowns must count as not taken, like absent confirmations.
        if (!taken && dose === 1 && offset % 5 !== 0) continue;
        const at = new Date(doseInstant(offset + offsetDay, dose));
        doses.push({
          patientId,
          scheduledAt: at,
          confirmedAt: taken ? at : null,
          status: taken ? 'taken' : offset % 10 === 0 ? 'unknown' : 'missed',
          source: 'test',
          sourceRecordId: `${options.id}-${person.pseudonym}-${offset}-${dose}`,
        });
      }
    }
    // Outside both windows: 90 days before enrolment.
    doses.push({
      patientId,
      scheduledAt: doseInstant(offsetDay - 90, 0),
      confirmedAt: doseInstant(offsetDay - 90, 0),
      status: 'taken',
      source: 'test',
      sourceRecordId: `${options.id}-${person.pseudonym}-early`,
    });
    await database.insert(doseEvents).values(doses);
    await database.insert(trialEnrolments).values({
      trialId: options.id,
      patientId,
      arm: person.arm,
      stratum: person.arm === 'control' ? 'busy' : 'forgetful',
      enrolledOn: options.enrolledOn,
    });
  }
}

export async function patientIdOf(database: Database, pseudonym: string) {
  const [row] = await database.select({ id: patients.id }).from(patients).where(eq(patients.pseudonym, pseudonym));
  return row!.id;
}

/** Trial 't1': the four participants, enrolled on 12 January 2026, with a fill and messages for +A-001. */
export async function insertTrialFixture(database: Database) {
  await insertTrial(database, { id: 't1', enrolledOn, people: participants });
  const first = await patientIdOf(database, '+A-001');
  // A New York evening dose on 11 January local time is 03:00 UTC on 12 January: baseline, not week 1.
  await database.insert(doseEvents).values({
    patientId: first,
    scheduledAt: new Date('2026-01-12T03:00:00Z'),
    confirmedAt: new Date('2026-01-12T03:00:00Z'),
    status: 'taken',
    source: 'test',
    sourceRecordId: 'late-evening',
  });
  await database.insert(dispensings).values({
    patientId: first,
    medicationCode: 'statin',
    dispensedOn: enrolledOn,
    daysSupply: 42,
    source: 'test',
    sourceRecordId: 'fill-1',
  });
  const sent = (day: number, direction: 'outbound' | 'inbound', id: string) => ({
    patientId: first,
    channel: 'sms' as const,
    direction,
    sentAt: new Date(`${isoFromDayNumber(enrolledDay + day)}T15:00:00Z`),
    status: direction === 'outbound' ? 'delivered' : 'received',
    providerMessageId: id,
    source: 'test',
    sourceRecordId: id,
  });
  await database
    .insert(messages)
    .values([
      sent(-3, 'outbound', 'm0'),
      sent(1, 'outbound', 'm1'),
      sent(1, 'inbound', 'm2'),
      sent(40, 'outbound', 'm3'),
      sent(90, 'outbound', 'm4'),
    ]);
  // A WhatsApp message and its SMS fallback carry out one decision: one message sent, not two.
  const [decision] = await database
    .insert(policyDecisions)
    .values({
      patientId: first,
      source: 'live',
      localDate: isoFromDayNumber(enrolledDay + 50),
      decidedAt: new Date(`${isoFromDayNumber(enrolledDay + 50)}T08:00:00Z`),
      policyName: 'personalised',
      policyVersion: 'test',
      context: {},
      action: 'message',
      propensity: 1,
      randomSeed: 'test',
      status: 'sent',
    })
    .returning({ id: policyDecisions.id });
  await database.insert(messages).values([
    { ...sent(50, 'outbound', 'm5'), channel: 'whatsapp', policyDecisionId: decision!.id },
    { ...sent(50, 'outbound', 'm6'), sentAt: new Date(`${isoFromDayNumber(enrolledDay + 50)}T16:00:00Z`), policyDecisionId: decision!.id },
  ]);
}
