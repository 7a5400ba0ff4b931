import 'server-only';
/**
 * A small message store for the page's tests: organisation A's twelve patients (one with a formula-like
 * pseudonym), organisation B's two, replies matched and not, statuses final and not, two webhook events kept
 * without effect. The expected figures are worked out in the tests from this description.
 */
import type { Database } from '@/db/client';
import { authUsers, messages, organisationMemberships, organisations, patients, webhookEvents } from '@/db/schema';

export const fixtureNow = new Date('2026-11-01T12:00:00Z');
export const admin = { id: 'admin-user', role: 'admin' as const };
export const clinician = { id: 'clinician-user', role: 'clinician' as const };
export const official = { id: 'official-user', role: 'government-official' as const };
export const patientUser = { id: 'patient-user', role: 'patient' as const };

const hoursAgo = (hours: number) => new Date(fixtureNow.getTime() - hours * 3_600_000);
const plusSeconds = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000).toISOString();

export async function insertMessageFixture(database: Database, options: { users?: boolean } = {}): Promise<{ formulaPseudonym: string }> {
  if (options.users !== false) {
    await database.insert(authUsers).values([
      { id: admin.id, name: 'A', email: 'admin-user@example.org' },
      { id: clinician.id, name: 'C', email: 'clinician-user@example.org' },
      { id: official.id, name: 'O', email: 'official-user@example.org' },
      { id: patientUser.id, name: 'P', email: 'patient-user@example.org' },
    ]);
  }
  await database.insert(organisations).values([
    { id: 'org-a', name: 'Organisation A' },
    { id: 'org-b', name: 'Organisation B' },
  ]);
  if (options.users !== false) await database.insert(organisationMemberships).values({ userId: clinician.id, organisationId: 'org-a' });
  const formulaPseudonym = '=HYPERLINK("x")';
  const made = await database
    .insert(patients)
    .values([
      ...Array.from({ length: 12 }, (_, index) => ({
        pseudonym: index === 0 ? formulaPseudonym : `A-${index}`,
        source: 'test',
        sourceRecordId: `a${index}`,
        organisationId: 'org-a',
        persona: 'busy-professional',
      })),
      ...Array.from({ length: 2 }, (_, index) => ({
        pseudonym: `B-${index}`,
        source: 'test',
        sourceRecordId: `b${index}`,
        organisationId: 'org-b',
        persona: 'forgetful-older-adult',
      })),
    ])
    .returning({ id: patients.id, organisationId: patients.organisationId });
  const inA = made.filter((row) => row.organisationId === 'org-a');
  const inB = made.filter((row) => row.organisationId === 'org-b');
  let record = 0;
  const base = () => ({ source: 'test', sourceRecordId: `m${record++}` });
  const reminderAt = hoursAgo(72);
  await database.insert(messages).values([
    // Every A patient: a read reminder (delivered after 10·(i+1) s) and a "taken" reply five minutes later.
    ...inA.flatMap((patient, index) => [
      {
        ...base(),
        patientId: patient.id,
        channel: 'whatsapp' as const,
        direction: 'outbound' as const,
        category: 'reminder',
        framing: 'gain',
        templateId: 'reminder.gain.1',
        body: 'Take your Medicine at 08:00 +31 6 1234 5678',
        sentAt: reminderAt,
        status: 'read',
        statusHistory: [
          { status: 'sent', at: reminderAt.toISOString() },
          { status: 'delivered', at: plusSeconds(reminderAt, 10 * (index + 1)) },
          { status: 'read', at: plusSeconds(reminderAt, 600) },
        ],
      },
      {
        ...base(),
        patientId: patient.id,
        channel: 'whatsapp' as const,
        direction: 'inbound' as const,
        sentAt: new Date(reminderAt.getTime() + 300_000),
        status: 'delivered',
        statusHistory: [{ status: 'delivered', at: plusSeconds(reminderAt, 300) }],
        replyText: 'taken',
      },
    ]),
    // an SMS still "sent" two days on (no final status), and one sent an hour ago (not checked yet).
    {
      ...base(),
      patientId: inA[0]!.id,
      channel: 'sms' as const,
      direction: 'outbound' as const,
      category: 'refill',
      framing: 'loss',
      templateId: 'refill.loss.1',
      sentAt: hoursAgo(48),
      status: 'sent',
      statusHistory: [{ status: 'sent', at: hoursAgo(48).toISOString() }],
    },
    {
      ...base(),
      patientId: inA[0]!.id,
      channel: 'whatsapp' as const,
      direction: 'outbound' as const,
      category: 'education',
      framing: 'social',
      templateId: 'education.social.1',
      sentAt: hoursAgo(1),
      status: 'sent',
      statusHistory: [{ status: 'sent', at: hoursAgo(1).toISOString() }],
    },
    // an SMS "STOP" 24 h after the SMS (no SMS in the 24 h before it: unmatched) ...
    {
      ...base(),
      patientId: inA[0]!.id,
      channel: 'sms' as const,
      direction: 'inbound' as const,
      sentAt: hoursAgo(23),
      status: 'received',
      statusHistory: [{ status: 'received', at: hoursAgo(23).toISOString() }],
      replyText: 'STOP',
    },
    // ... and a live WhatsApp reply quoting a message we do not hold (unmatched), read by the engine as "skipped".
    {
      ...base(),
      patientId: inA[0]!.id,
      channel: 'whatsapp' as const,
      direction: 'inbound' as const,
      sentAt: hoursAgo(2),
      status: 'received',
      statusHistory: [{ status: 'received', at: hoursAgo(2).toISOString() }],
      replyToProviderMessageId: 'wamid.not-ours',
      inboundReading: {
        content: { kind: 'button', payload: 'x', title: 'Skip' },
        interpretation: { kind: 'reply', reply: { intent: 'skipped', reason: null } },
      },
      providerMessageId: 'wamid.reply-1',
    },
    // a WhatsApp message that failed for good.
    {
      ...base(),
      patientId: inA[1]!.id,
      channel: 'whatsapp' as const,
      direction: 'outbound' as const,
      category: 'check-in',
      framing: 'neutral',
      templateId: 'check-in.neutral.1',
      sentAt: hoursAgo(30),
      status: 'failed',
      statusHistory: [
        { status: 'sent', at: hoursAgo(30).toISOString() },
        { status: 'failed', at: hoursAgo(29).toISOString(), errors: [{ code: '131026', title: 'Message undeliverable' }] },
      ],
    },
    // B: delivered after 30 s.
    ...inB.map((patient) => ({
      ...base(),
      patientId: patient.id,
      channel: 'whatsapp' as const,
      direction: 'outbound' as const,
      category: 'reminder',
      framing: 'gain',
      templateId: 'reminder.gain.1',
      sentAt: hoursAgo(50),
      status: 'delivered',
      statusHistory: [
        { status: 'sent', at: hoursAgo(50).toISOString() },
        { status: 'delivered', at: plusSeconds(hoursAgo(50), 30) },
      ],
    })),
  ]);
  await database.insert(webhookEvents).values([
    {
      provider: 'whatsapp',
      eventKey: 'whatsapp:status:wamid.gone:delivered',
      kind: 'status',
      providerMessageId: 'wamid.gone',
      outcome: 'unknown-message',
      occurredAt: hoursAgo(5),
    },
    {
      provider: 'twilio',
      eventKey: 'twilio:message:SMunknown',
      kind: 'inbound',
      providerMessageId: 'SMunknown',
      outcome: 'unknown-sender',
      sender: '15550100999',
      occurredAt: hoursAgo(6),
    },
  ]);
  return { formulaPseudonym };
}
