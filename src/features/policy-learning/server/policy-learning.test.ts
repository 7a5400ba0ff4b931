import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { doseEvents, jobs, patients, policyDecisions, policyStates } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import type { DecisionContext } from '@/engine/policy/contract';
import { armCount, armIndex } from '@/engine/policy/message-arms';
import { createPolicyState, summarisePosterior } from '@/engine/policy/personalised';
import { fillDecisionRewards, planMessagingDay } from '@/features/messaging-loop';
import { claimNextJob, enqueueJob, getJob, registerJobHandler, runClaimedJob } from '@/lib/server/jobs';
import { policyUpdateJobKind } from '../schemas';
import { estimateLivePolicyValues } from './estimate-live-policy-values';
import { findCurrentPolicyVersion } from './find-current-policy-version';
import { listPolicyStates } from './list-policy-states';
import { loadPersonalisedPolicy } from './load-personalised-policy';
import { createPolicyUpdateHandler, ensurePolicyUpdate, policyUpdateKey, runPolicyUpdate } from './run-policy-update';
import { toLoggedDecision, updateLivePolicy } from './update-live-policy';

// 06:00 UTC: 07:00 in Madrid, past the 04:00 planning time.
const now = new Date('2026-11-24T06:00:00Z');
const hourMs = 3_600_000;

const context = (patientId: string, day: number): DecisionContext => ({
  patientId,
  persona: 'busy-professional',
  features: { ageBand: '35-44', sex: 'male', conditions: [], productCount: 1, preferredChannel: 'whatsapp', doseObserver: 'app' },
  day,
  dayIndex: 0,
  weekday: 2,
  minuteOfDay: 420,
  firstDoseMinute: 480,
  recentHistory: { dosesScheduledLast7Days: 7, dosesConfirmedLast7Days: 5, daysSinceLastReply: null, estimatedDaysOfSupplyLeft: 10 },
  messageCounts: { last7Days: 1, last28Days: 4, total: 9, repliesLast28Days: 0 },
});

describe('toLoggedDecision', () => {
  it('numbers the action as the engine does (0: none, 1 + arm index) and refuses rows it cannot read', () => {
    const row = { patient_id: 'p', context: context('p', 1), propensity: 0.1, arm_probabilities: null, reward: 0.75 };
    expect(toLoggedDecision({ ...row, action: 'message', category: 'refill', framing: 'loss' })).toMatchObject({
      patientId: 'p',
      persona: 'busy-professional',
      action: 1 + armIndex('refill', 'loss'),
      propensity: 0.1,
      observedReward: 0.75,
    });
    expect(toLoggedDecision({ ...row, action: 'no-message', category: null, framing: null })!.action).toBe(0);
    expect(toLoggedDecision({ ...row, action: 'message', category: 'refill', framing: 'shouting' })).toBeNull();
    expect(
      toLoggedDecision({
        ...row,
        context: { ...context('p', 1), persona: 'unknown' },
        action: 'no-message',
        category: null,
        framing: null,
      }),
    ).toBeNull();
  });
});

describe.each(testDatabaseBackends())('the live learning policy on $name', (backend) => {
  let database: TestDatabase;
  const ids: Record<string, string> = {};

  beforeEach(async () => {
    database = await backend.create();
    const rows = await database.database
      .insert(patients)
      .values([
        {
          pseudonym: 'LEARNER',
          source: 'test',
          sourceRecordId: 'l',
          timezone: 'Europe/Madrid',
          messagingProgramme: 'personalised',
          persona: 'busy-professional',
          ageBand: '35-44',
          sex: 'male',
          preferredChannel: 'whatsapp',
        },
        { pseudonym: 'SECOND', source: 'test', sourceRecordId: 's', timezone: 'Asia/Tokyo', messagingProgramme: 'personalised' },
        { pseudonym: 'FIXED', source: 'test', sourceRecordId: 'f', timezone: 'Europe/Madrid', messagingProgramme: 'fixed-daily' },
      ])
      .returning({ id: patients.id, pseudonym: patients.pseudonym });
    for (const row of rows) ids[row.pseudonym] = row.id;
  });
  afterEach(async () => {
    await database.dispose();
  });

  const states = () =>
    database.database
      .select({
        version: policyStates.version,
        source: policyStates.source,
        decisionsUsed: policyStates.decisionsUsed,
        trainedThrough: policyStates.trainedThrough,
        state: policyStates.state,
      })
      .from(policyStates)
      .orderBy(asc(policyStates.id));

  /** A logged live decision as the loop writes it (only what the update reads varies). */
  const logDecision = (options: {
    patientId: string;
    localDate: string;
    decidedAt: Date;
    policyName?: string;
    arm?: { category: 'reminder' | 'refill'; framing: 'gain' | 'neutral' } | null;
    status: 'sent' | 'no-message' | 'not-sent' | 'planned';
    reward: number | null;
    rewarded: boolean;
    propensity?: number;
  }) =>
    database.database
      .insert(policyDecisions)
      .values({
        patientId: options.patientId,
        source: 'live',
        localDate: options.localDate,
        decidedAt: options.decidedAt,
        policyName: options.policyName ?? 'personalised',
        policyVersion: '0',
        context: context(options.patientId, 20_000) as unknown as Record<string, unknown>,
        action: options.arm ? 'message' : 'no-message',
        category: options.arm?.category ?? null,
        framing: options.arm?.framing ?? null,
        propensity: options.propensity ?? 0.25,
        randomSeed: `${options.patientId}|${options.localDate}`,
        status: options.status,
        reward: options.reward,
        rewardedAt: options.rewarded ? new Date(options.decidedAt.getTime() + 20 * hourMs) : null,
      })
      .returning({ id: policyDecisions.id });

  it('decides personalised patients from the latest stored version: the prior stored once as version 0, every probability logged', async () => {
    const db = database.database;
    expect(await findCurrentPolicyVersion({ database: db })).toBeNull();
    // Two runs at once: one prior.
    await Promise.all([planMessagingDay({ database: db, now }), planMessagingDay({ database: db, now })]);
    expect((await states()).map((row) => [row.version, row.source, row.decisionsUsed, row.trainedThrough])).toEqual([
      ['0', 'live', 0, null],
    ]);
    const decisions = await db
      .select({
        patientId: policyDecisions.patientId,
        policyName: policyDecisions.policyName,
        policyVersion: policyDecisions.policyVersion,
        action: policyDecisions.action,
        category: policyDecisions.category,
        framing: policyDecisions.framing,
        propensity: policyDecisions.propensity,
        armProbabilities: policyDecisions.armProbabilities,
        randomSeed: policyDecisions.randomSeed,
      })
      .from(policyDecisions);
    expect(decisions).toHaveLength(3);
    const learning = decisions.filter((row) => row.policyName === 'personalised');
    expect(learning.map((row) => row.patientId).sort()).toEqual([ids.LEARNER, ids.SECOND].sort());
    for (const row of learning) {
      expect(row.policyVersion).toBe('0');
      expect(row.randomSeed).toMatch(/\|personalised@0$/);
      expect(row.armProbabilities).toHaveLength(armCount + 1);
      expect(row.armProbabilities!.reduce((sum, p) => sum + p, 0)).toBeCloseTo(1, 9);
      // The propensity logged is the probability of the action taken.
      const action = row.action === 'message' ? 1 + armIndex(row.category as 'reminder', row.framing as 'neutral') : 0;
      expect(row.propensity).toBeCloseTo(row.armProbabilities![action]!, 12);
    }
    expect(decisions.find((row) => row.patientId === ids.FIXED)!.policyName).toBe('fixed-daily');
    expect(await findCurrentPolicyVersion({ database: db })).toMatchObject({ version: 0, decisionsUsed: 0, trainedThrough: null });

    // A newer version is stored: the next day is decided with it.
    await db.insert(policyStates).values({
      policyName: 'personalised',
      version: '1',
      source: 'live',
      state: { ...createPolicyState(), version: 1 } as unknown as Record<string, unknown>,
      settings: {},
      decisionsUsed: 5,
      trainedThrough: now,
    });
    await planMessagingDay({ database: db, now: new Date(now.getTime() + 24 * hourMs), patientIds: [ids.LEARNER!] });
    const versions = await db
      .select({ localDate: policyDecisions.localDate, version: policyDecisions.policyVersion })
      .from(policyDecisions)
      .where(eq(policyDecisions.patientId, ids.LEARNER!))
      .orderBy(asc(policyDecisions.localDate));
    expect(versions).toEqual([
      { localDate: '2026-11-24', version: '0' },
      { localDate: '2026-11-25', version: '1' },
    ]);
    expect(await findCurrentPolicyVersion({ database: db })).toEqual({
      version: 1,
      createdAt: expect.any(String),
      decisionsUsed: 5,
      trainedThrough: now.toISOString(),
    });
  });

  it('the nightly update learns once from the settled, rewarded decisions after trained_through, page by page', async () => {
    const db = database.database;
    const learner = ids.LEARNER!;
    const second = ids.SECOND!;
    const at = (hours: number) => new Date(now.getTime() + hours * hourMs);
    // Learned: a sent message and a policy "none", rewarded.
    await logDecision({
      patientId: learner,
      localDate: '2026-11-24',
      decidedAt: at(0),
      arm: { category: 'reminder', framing: 'gain' },
      status: 'sent',
      reward: 0.9,
      rewarded: true,
    });
    await logDecision({
      patientId: second,
      localDate: '2026-11-24',
      decidedAt: at(0),
      arm: null,
      status: 'no-message',
      reward: 0.4,
      rewarded: true,
    });
    // Not learned: the message never went; no reward to observe; another policy.
    await logDecision({
      patientId: learner,
      localDate: '2026-11-23',
      decidedAt: at(-24),
      arm: { category: 'refill', framing: 'neutral' },
      status: 'not-sent',
      reward: 0.5,
      rewarded: true,
    });
    await logDecision({
      patientId: second,
      localDate: '2026-11-23',
      decidedAt: at(-24),
      arm: null,
      status: 'no-message',
      reward: null,
      rewarded: true,
    });
    await logDecision({
      patientId: ids.FIXED!,
      localDate: '2026-11-24',
      decidedAt: at(0),
      policyName: 'fixed-daily',
      arm: { category: 'reminder', framing: 'neutral' },
      status: 'sent',
      reward: 1,
      rewarded: true,
    });
    // Still waiting for its reward: it and everything decided after it wait for the next night.
    const [pending] = await logDecision({
      patientId: learner,
      localDate: '2026-11-25',
      decidedAt: at(20),
      arm: null,
      status: 'no-message',
      reward: null,
      rewarded: false,
    });
    await logDecision({
      patientId: second,
      localDate: '2026-11-26',
      decidedAt: at(21),
      arm: { category: 'refill', framing: 'gain' },
      status: 'sent',
      reward: 1,
      rewarded: true,
    });

    // The loop stores the prior before its first personalised decision (these rows were written directly).
    expect(await updateLivePolicy({ database: db, now: at(45) })).toMatchObject({ version: null, previousVersion: null });
    expect(await states()).toEqual([]);
    await loadPersonalisedPolicy({ database: db, now });
    const night = at(45);
    const pages: number[] = [];
    const first = await updateLivePolicy({
      database: db,
      now: night,
      pageSize: 1,
      decisionsPerUpdate: 1,
      onPage: async (read) => void pages.push(read),
    });
    expect(first).toEqual({
      version: 1,
      previousVersion: 0,
      decisionsLearned: 2,
      decisionsSkipped: 0,
      trainedThrough: at(0).toISOString(),
    });
    expect(pages).toEqual([1, 2]);
    let stored = await states();
    expect(stored.map((row) => [row.version, row.decisionsUsed, row.trainedThrough?.toISOString() ?? null])).toEqual([
      ['0', 0, null],
      ['1', 2, at(0).toISOString()],
    ]);
    expect(stored[1]!.state).toMatchObject({ version: 1, decisionsUsed: 2 });

    // Again the same night: nothing new, nothing stored.
    expect(await updateLivePolicy({ database: db, now: night })).toMatchObject({ version: null, previousVersion: 1, decisionsLearned: 0 });
    // The pending day is rewarded: the next night learns it and the one after it.
    await db
      .update(policyDecisions)
      .set({ reward: 0.2, rewardedAt: at(44) })
      .where(eq(policyDecisions.id, pending!.id));
    expect(await updateLivePolicy({ database: db, now: at(69) })).toMatchObject({
      version: 2,
      decisionsLearned: 2,
      trainedThrough: at(21).toISOString(),
    });
    stored = await states();
    expect(stored.map((row) => [row.version, row.decisionsUsed])).toEqual([
      ['0', 0],
      ['1', 2],
      ['2', 4],
    ]);

    // Two runs at once store one version.
    await logDecision({
      patientId: learner,
      localDate: '2026-11-27',
      decidedAt: at(50),
      arm: null,
      status: 'no-message',
      reward: 1,
      rewarded: true,
    });
    const both = await Promise.all([updateLivePolicy({ database: db, now: at(93) }), updateLivePolicy({ database: db, now: at(93) })]);
    expect(both.map((result) => result.version).sort()).toEqual([3, null]);
    expect((await states()).map((row) => row.version)).toEqual(['0', '1', '2', '3']);
  });

  it('closes the loop: decided with the prior, rewarded from confirmed doses, learned overnight, decided with version 1 the next day', async () => {
    const db = database.database;
    const learner = ids.LEARNER!;
    await db
      .insert(doseEvents)
      .values({ patientId: learner, scheduledAt: new Date('2026-11-24T07:30:00Z'), status: 'taken', source: 'app', sourceRecordId: 'd1' });
    await planMessagingDay({ database: db, now, patientIds: [learner] });
    // The decision is carried out (the channels mark it sent, or it was the policy's "none").
    await db.update(policyDecisions).set({ status: 'sent' }).where(eq(policyDecisions.status, 'planned'));
    // Madrid's day ends at 23:00 UTC; the night's update runs at 03:00 UTC.
    expect(await fillDecisionRewards({ database: db, now: new Date('2026-11-24T23:00:00Z') })).toEqual({ rewarded: 1 });
    const update = await updateLivePolicy({ database: db, now: new Date('2026-11-25T03:00:00Z') });
    expect(update).toMatchObject({ version: 1, previousVersion: 0, decisionsLearned: 1, trainedThrough: now.toISOString() });
    await planMessagingDay({ database: db, now: new Date('2026-11-25T06:00:00Z'), patientIds: [learner] });
    const days = await db
      .select({ localDate: policyDecisions.localDate, version: policyDecisions.policyVersion, reward: policyDecisions.reward })
      .from(policyDecisions)
      .orderBy(asc(policyDecisions.localDate));
    expect(days.map((day) => [day.localDate, day.version])).toEqual([
      ['2026-11-24', '0'],
      ['2026-11-25', '1'],
    ]);
    expect(days[0]!.reward).not.toBeNull();
    expect(await findCurrentPolicyVersion({ database: db })).toMatchObject({ version: 1, decisionsUsed: 1 });
  });

  it('a failed update stores nothing: the previous version stays in use', async () => {
    const db = database.database;
    await loadPersonalisedPolicy({ database: db, now });
    for (const hours of [0, 1, 2])
      await logDecision({
        patientId: ids.LEARNER!,
        localDate: `2026-11-2${hours + 1}`,
        decidedAt: new Date(now.getTime() + hours * hourMs),
        arm: null,
        status: 'no-message',
        reward: 1,
        rewarded: true,
      });
    const failing = updateLivePolicy({
      database: db,
      now: new Date(now.getTime() + 48 * hourMs),
      pageSize: 1,
      onPage: async (read) => {
        if (read === 2) throw new Error('connection lost');
      },
    });
    await expect(failing).rejects.toThrow('connection lost');
    expect((await states()).map((row) => row.version)).toEqual(['0']);
    expect(await findCurrentPolicyVersion({ database: db })).toMatchObject({ version: 0 });
  });

  it('runs nightly as the policy-update job: one per UTC night, the next night queued first; a bad payload fails', async () => {
    const db = database.database;
    expect(await ensurePolicyUpdate({ database: db, now })).toMatchObject({ created: true });
    expect(await ensurePolicyUpdate({ database: db, now: new Date(now.getTime() + hourMs) })).toMatchObject({ created: false });
    const updates = () => db.select({ key: jobs.dedupeKey, runAt: jobs.runAt }).from(jobs).where(eq(jobs.kind, policyUpdateJobKind));
    expect(await updates()).toEqual([{ key: 'policy-update:2026-11-24', runAt: new Date('2026-11-24T03:00:00Z') }]);

    registerJobHandler(
      policyUpdateJobKind,
      createPolicyUpdateHandler(
        () => db,
        () => now,
      ),
    );
    const bad = await enqueueJob({ database: db, kind: policyUpdateJobKind, payload: { everything: true }, runAt: new Date(0) });
    for (const expected of [bad.id, undefined]) {
      const job = await claimNextJob({ database: db, kinds: [policyUpdateJobKind], now });
      if (expected !== undefined) expect(job?.id).toBe(expected);
      await runClaimedJob({ database: db, job: job!, clock: () => now });
    }
    expect((await getJob({ database: db, id: bad.id }))!.error).toContain('everything');
    const nightly = (await updates()).find((row) => row.key === policyUpdateKey(now));
    expect(nightly).toBeDefined();
    // Tonight's run queued tomorrow's, due at 03:00 UTC; running it twice queues one.
    await runPolicyUpdate({ database: db, now, payload: {} });
    expect((await updates()).map((row) => [row.key, row.runAt.toISOString()]).sort()).toEqual([
      [null, '1970-01-01T00:00:00.000Z'],
      ['policy-update:2026-11-24', '2026-11-24T03:00:00.000Z'],
      ['policy-update:2026-11-25', '2026-11-25T03:00:00.000Z'],
    ]);
    const [tonight] = await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.dedupeKey, 'policy-update:2026-11-24'));
    expect(await getJob({ database: db, id: tonight!.id })).toMatchObject({
      status: 'succeeded',
      result: { version: null, decisionsLearned: 0 },
    });
  });

  it('lists the latest versions oldest first with their posterior summaries; refuses a bad limit', async () => {
    const db = database.database;
    await planMessagingDay({ database: db, now });
    await fillDecisionRewards({ database: db, now: new Date(now.getTime() + 48 * hourMs) });
    const prior = createPolicyState();
    for (const version of [1, 2])
      await db.insert(policyStates).values({
        policyName: 'personalised',
        version: String(version),
        source: 'live',
        // Version 2 has learned about one patient: the listing leaves the per-patient part out of what it reads.
        state: {
          ...prior,
          version,
          patients: version === 2 ? { 'patient-a': [0, 1, 0, 0, 0, 0, 0.01, 0, 0, 0, 0] } : {},
        } as unknown as Record<string, unknown>,
        settings: {},
        decisionsUsed: version * 10,
      });
    const listed = await listPolicyStates({ database: db, limit: 2 });
    expect(listed.map((row) => [row.version, row.decisionsUsed, row.source])).toEqual([
      [1, 10, 'live'],
      [2, 20, 'live'],
    ]);
    expect(listed[0]!.posterior).toEqual(summarisePosterior({ ...prior, version: 1 }));
    expect(listed[1]!.posterior).toEqual(
      summarisePosterior({ ...prior, version: 2, patients: { 'patient-a': [0, 1, 0, 0, 0, 0, 0.01, 0, 0, 0, 0] } }),
    );
    expect((await listPolicyStates({ database: db, limit: 100 })).map((row) => row.version)).toEqual([0, 1, 2]);
    await expect(listPolicyStates({ database: db, limit: 0 })).rejects.toMatchObject({ code: 'validation' });
    await expect(listPolicyStates({ database: db, limit: 101 })).rejects.toThrow('limit');
  });

  it('estimates off-policy what each policy would have earned on the live personalised decisions of the period', async () => {
    const db = database.database;
    expect(await estimateLivePolicyValues({ database: db, now })).toBeNull();
    const at = (hours: number) => new Date(now.getTime() - hours * hourMs);
    await logDecision({
      patientId: ids.LEARNER!,
      localDate: '2026-11-20',
      decidedAt: at(96),
      arm: null,
      status: 'no-message',
      reward: 0.8,
      rewarded: true,
      propensity: 0.5,
    });
    await logDecision({
      patientId: ids.LEARNER!,
      localDate: '2026-11-21',
      decidedAt: at(72),
      arm: { category: 'reminder', framing: 'gain' },
      status: 'sent',
      reward: 0.6,
      rewarded: true,
    });
    await logDecision({
      patientId: ids.SECOND!,
      localDate: '2026-11-21',
      decidedAt: at(72),
      arm: null,
      status: 'no-message',
      reward: 0.4,
      rewarded: true,
      propensity: 0.5,
    });
    // Outside the period, not carried out, not rewarded: not used.
    await logDecision({
      patientId: ids.SECOND!,
      localDate: '2026-10-01',
      decidedAt: at(24 * 50),
      arm: null,
      status: 'no-message',
      reward: 1,
      rewarded: true,
      propensity: 0.5,
    });
    await logDecision({
      patientId: ids.SECOND!,
      localDate: '2026-11-22',
      decidedAt: at(48),
      arm: { category: 'refill', framing: 'gain' },
      status: 'not-sent',
      reward: 1,
      rewarded: true,
    });
    await logDecision({
      patientId: ids.SECOND!,
      localDate: '2026-11-23',
      decidedAt: at(24),
      arm: null,
      status: 'no-message',
      reward: null,
      rewarded: false,
      propensity: 0.5,
    });

    const estimate = await estimateLivePolicyValues({ database: db, now, days: 28, replicates: 50 });
    expect(estimate).toMatchObject({ decisions: 3, decisionsSkipped: 0, patients: 2, period: { until: now.toISOString() } });
    expect(estimate!.loggedMeanReward).toBeCloseTo(0.6, 12);
    // No policy state stored yet: the fixed policies only.
    expect(estimate!.targets.map((target) => target.policy)).toEqual(['none', 'fixed-daily', 'fixed-weekly']);
    // "Never message" takes action 0 with certainty: IPS = mean(1[a = 0] r / p) = (0.8 / 0.5 + 0.4 / 0.5) / 3; SNIPS = 0.6.
    const none = estimate!.targets[0]!;
    expect(none.ips.value).toBeCloseTo(0.8, 12);
    expect(none.snips.value).toBeCloseTo(0.6, 12);
    expect(none.ips.lower).toBeLessThanOrEqual(none.ips.upper);
    // The newest decision only.
    expect(await estimateLivePolicyValues({ database: db, now, maximumDecisions: 1, replicates: 10 })).toMatchObject({ decisions: 1 });
    // With a stored version (the loop stores the prior), the personalised policy as it stands is a target too.
    await planMessagingDay({ database: db, now: new Date('2026-12-01T06:00:00Z'), patientIds: [ids.FIXED!, ids.LEARNER!] });
    const withState = await estimateLivePolicyValues({ database: db, now, replicates: 10 });
    expect(withState!.targets.map((target) => [target.policy, target.version])).toContainEqual(['personalised', '0']);
    await expect(estimateLivePolicyValues({ database: db, now, days: 0 })).rejects.toThrow('days');
  });
});
