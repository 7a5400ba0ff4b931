import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authUsers, messages, organisationMemberships, organisations, patients, policyDecisions, policyStates } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { armCount, armIndex } from '@/engine/policy/message-arms';
import type { Role } from '@/lib/domain/roles';
import type { SessionUser } from '@/lib/server/session';
import type { FlowEdge, MessageFlowPage } from '../schemas';
import { getMessageFlow } from './get-message-flow';

const now = new Date('2026-11-24T12:00:00Z');
const hourMs = 3_600_000;
const ago = (hours: number) => new Date(now.getTime() - hours * hourMs);
const actor = (id: string, role: Role): SessionUser => ({
  id,
  role,
  email: `${id}@example.org`,
  name: id,
  phoneNumber: null,
  twoFactorEnabled: false,
});

/** Every action's probability: `chosen` gets `propensity`, the rest share what is left. */
function probabilities(chosen: number, propensity: number): number[] {
  return Array.from({ length: armCount + 1 }, (_, action) => (action === chosen ? propensity : (1 - propensity) / armCount));
}

const counts = (page: MessageFlowPage) => Object.fromEntries(page.edges.map((edge: FlowEdge) => [edge.id, edge.count.display]));

describe.each(testDatabaseBackends())('personalised message flow on $name', (backend) => {
  let database: TestDatabase;
  const ids: Record<string, string> = {};
  const reminderGain = 1 + armIndex('reminder', 'gain');

  beforeEach(async () => {
    database = await backend.create();
    const db = database.database;
    await db
      .insert(authUsers)
      .values(['admin', 'clinician', 'lonely', 'official'].map((id) => ({ id, name: id, email: `${id}@example.org` })));
    await db.insert(organisations).values({ id: 'clinic', name: 'Clinic' });
    await db.insert(organisationMemberships).values({ userId: 'clinician', organisationId: 'clinic' });
    const rows = await db
      .insert(patients)
      .values([
        { pseudonym: 'REAL', source: 'test', sourceRecordId: 'r', organisationId: 'clinic', messagingProgramme: 'personalised' },
        { pseudonym: 'DEMO', source: 'test', sourceRecordId: 'd', messagingProgramme: 'personalised', synthetic: true },
        { pseudonym: 'OTHER', source: 'test', sourceRecordId: 'o', organisationId: 'clinic', messagingProgramme: 'fixed-daily' },
      ])
      .returning({ id: patients.id, pseudonym: patients.pseudonym });
    for (const row of rows) ids[row.pseudonym] = row.id;
    await db.insert(policyStates).values([
      { policyName: 'personalised', version: '1', source: 'live', state: {}, settings: {}, createdAt: ago(24 * 40) },
      {
        policyName: 'personalised',
        version: '2',
        source: 'live',
        state: {},
        settings: {},
        decisionsUsed: 1,
        trainedThrough: ago(72),
        createdAt: ago(24),
      },
    ]);
    const decision = (patient: string, hoursAgo: number, localDate: string, extra: Partial<typeof policyDecisions.$inferInsert>) => ({
      patientId: ids[patient]!,
      source: 'live' as const,
      localDate,
      decidedAt: ago(hoursAgo),
      policyName: 'personalised',
      policyVersion: '2',
      context: { patientId: ids[patient], persona: 'busy-professional', features: { ageBand: '35-44', conditions: [] } },
      action: 'no-message' as const,
      propensity: 0.4,
      randomSeed: 'seed',
      status: 'no-message' as const,
      armProbabilities: probabilities(0, 0.4),
      ...extra,
    });
    const inserted = await db
      .insert(policyDecisions)
      .values([
        decision('REAL', 120, '2026-11-19', {
          action: 'message',
          category: 'reminder',
          framing: 'gain',
          templateId: 'reminder.gain.1',
          propensity: 0.3,
          armProbabilities: probabilities(reminderGain, 0.3),
          status: 'sent',
          reward: 1,
          rewardedAt: ago(96),
        }),
        decision('REAL', 2, '2026-11-24', {}),
        decision('DEMO', 96, '2026-11-20', {
          action: 'message',
          category: 'refill',
          framing: 'loss',
          propensity: 0.2,
          status: 'not-sent',
          statusReason: 'no-consent',
          armProbabilities: null,
        }),
        // Outside the 28 days, and another policy's: neither is counted.
        decision('REAL', 24 * 30, '2026-10-25', {}),
        decision('OTHER', 5, '2026-11-24', { policyName: 'fixed-daily', policyVersion: '1' }),
      ])
      .returning({ id: policyDecisions.id });
    ids.sent = inserted[0]!.id;
    ids.latest = inserted[1]!.id;
    ids.demo = inserted[2]!.id;
    const message = (extra: Partial<typeof messages.$inferInsert>) => ({
      patientId: ids.REAL!,
      channel: 'whatsapp' as const,
      direction: 'outbound' as const,
      sentAt: ago(119),
      status: 'delivered',
      source: 'test',
      sourceRecordId: String(Math.random()),
      ...extra,
    });
    await db.insert(messages).values([
      message({
        policyDecisionId: ids.sent,
        templateId: 'reminder.gain.1',
        templateLanguage: 'en',
        templateVersion: 2,
        body: 'Time for your medicine',
        providerMessageId: 'wamid.1',
      }),
      // The SMS fallback of the same decision: one decision, one message sent.
      message({ policyDecisionId: ids.sent, channel: 'sms', sentAt: ago(118), providerMessageId: 'SM1' }),
      message({
        direction: 'inbound',
        sentAt: ago(118.5),
        status: 'received',
        body: 'Taken',
        replyToProviderMessageId: 'wamid.1',
        inboundReading: { content: { kind: 'text', text: 'Taken' }, interpretation: { kind: 'reply', reply: { intent: 'taken' } } },
      }),
    ]);
  });
  afterEach(async () => {
    await database.dispose();
  });

  const flow = async (id: string, role: Role) => {
    const page = await getMessageFlow({ database: database.database, actor: actor(id, role), now });
    if (page.status !== 'ok') throw new Error(`expected a page, got ${page.status}`);
    return page;
  };

  it('counts every step for a clinician’s organisation and traces its latest decision', async () => {
    const page = await flow('clinician', 'clinician');
    expect(page).toMatchObject({ scope: 'organisation', suppressed: false, periodDays: 28, versionsInPeriod: 1 });
    expect(page.enrolled.display).toBe('1');
    expect(counts(page)).toEqual({
      'patient-data-context': '1',
      'context-posterior': '2',
      'posterior-probabilities': '2',
      'probabilities-choice': '1',
      'choice-message': '1',
      'message-reply': '1',
      'reply-reward': '1',
      'reward-update': '1',
      'update-posterior': '1',
    });
    expect(page.latestVersion).toMatchObject({ version: '2', decisionsUsed: 1, trainedThrough: ago(72).toISOString() });
    expect(page.trace.status).toBe('traced');
    if (page.trace.status !== 'traced') return;
    const traced = page.trace.decision;
    expect(traced).toMatchObject({
      pseudonym: 'REAL',
      synthetic: false,
      localDate: '2026-11-24',
      choice: { label: 'No message', propensity: 0.4 },
    });
    expect(traced.context).toContainEqual({ name: 'persona', value: 'busy-professional' });
    expect(traced.context).toContainEqual({ name: 'features.conditions', value: 'none' });
    expect(traced.context.map((entry) => entry.name)).not.toContain('patientId');
    expect(traced.probabilities).toHaveLength(armCount + 1);
    expect(traced.probabilities!.filter((entry) => entry.chosen)).toEqual([
      { action: 0, label: 'No message', probability: 0.4, chosen: true },
    ]);
    expect(traced).toMatchObject({ message: null, reply: null, reward: null, learnedIn: null });
  });

  it('traces a sent message to its reply, reward and the version that learned from it', async () => {
    await database.database.delete(policyDecisions).where(eq(policyDecisions.id, ids.latest!));
    const page = await flow('clinician', 'clinician');
    if (page.trace.status !== 'traced') throw new Error('expected a traced decision');
    const traced = page.trace.decision;
    expect(traced.choice).toEqual({ label: 'reminder · gain', propensity: 0.3 });
    expect(traced.probabilities!.find((entry) => entry.chosen)).toMatchObject({ action: reminderGain, probability: 0.3 });
    expect(traced.message).toMatchObject({
      channel: 'whatsapp',
      templateId: 'reminder.gain.1',
      templateVersion: 2,
      body: 'Time for your medicine',
    });
    expect(traced.reply).toMatchObject({ channel: 'whatsapp', text: 'Taken', reading: 'taken' });
    expect(traced).toMatchObject({ reward: 1, learnedIn: '2' });
  });

  it('counts everyone for an admin; a government official gets suppressed counts and only a synthetic patient traced', async () => {
    const admin = await flow('admin', 'admin');
    expect(admin.enrolled.display).toBe('2');
    expect(counts(admin)['context-posterior']).toBe('3');
    expect(counts(admin)['posterior-probabilities']).toBe('2');
    expect(admin.trace.status === 'traced' && admin.trace.decision.pseudonym).toBe('REAL');

    const official = await flow('official', 'government-official');
    expect(official.suppressed).toBe(true);
    expect(official.enrolled).toMatchObject({ count: null, suppressed: true });
    expect(counts(official)['context-posterior']).toBe('<11');
    // The model's versions are not patients: shown as they are.
    expect(counts(official)['update-posterior']).toBe('1');
    expect(official.trace.status === 'traced' && official.trace.decision).toMatchObject({
      pseudonym: 'DEMO',
      synthetic: true,
      probabilities: null,
    });

    await database.database.delete(policyDecisions).where(eq(policyDecisions.id, ids.demo!));
    expect((await flow('official', 'government-official')).trace).toEqual({ status: 'not-shown' });
  });

  it('says plainly when there is nothing: a clinician without an organisation, and no live decision at all', async () => {
    const lonely = await flow('lonely', 'clinician');
    expect(lonely.trace).toEqual({ status: 'none-yet' });
    expect(lonely.edges.slice(0, -1).every((edge) => edge.count.count === 0)).toBe(true);
    await database.database.delete(policyDecisions);
    expect((await flow('admin', 'admin')).trace).toEqual({ status: 'none-yet' });
    await expect(getMessageFlow({ database: database.database, actor: null, now })).rejects.toMatchObject({ code: 'unauthenticated' });
  });
});
