import { and, eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  auditLog,
  authUsers,
  consentEvents,
  dispensings,
  organisationMemberships,
  organisations,
  patients,
  policyDecisions,
  trialEnrolments,
  trialScreenings,
  trials,
} from '@/db/schema';
import type { Database } from '@/db/client';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { planMessagingDay } from '@/features/messaging-loop';
import type { Role } from '@/lib/domain/roles';
import { addDaysIso, defaultAnalysisPlan } from '../protocol';
import { createTrial } from './create-trial';
import { enrolTrialParticipant, recruitmentClosedMessage, type TrialEnrolmentResult } from './enrol-trial-participant';
import { getTrialOverview } from './get-trial-overview';
import { getTrialParticipation } from './get-trial-participation';
import { listTrialCandidates } from './list-trial-candidates';
import { listTrialParticipants } from './list-trial-participants';
import { enrolledPatientMessage, recordTrialExclusion } from './record-trial-exclusion';
import { recordTrialExit } from './record-trial-exit';
import { analysisPlanFrozenMessage, isFrozenPlanError, updateTrialAnalysisPlan } from './update-trial-analysis-plan';

const now = new Date('2026-11-24T10:00:00Z');
const today = '2026-11-24';
const trialId = 'adherence-2026';
const checklist = { adult: true, 'reads-supported-language': true, 'informed-consent': true } as const;
/** Every key of a JSON value, however deep. */
const keysOf = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(keysOf)
    : typeof value === 'object' && value !== null
      ? Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)])
      : [];
const actorOf = (id: string, role: Role) => ({ id, role });
const admin = actorOf('admin', 'admin');
const clinician = actorOf('clinician', 'clinician');
const otherClinician = actorOf('other-clinician', 'clinician');

/**
 * The database, except that `before` runs (once) just as a use case opens its first transaction: a
 * colleague's work committed between the use case's first reads and its writes.
 */
function runningFirst(database: Database, before: () => Promise<unknown>): Database {
  let pending: (() => Promise<unknown>) | undefined = before;
  return new Proxy(database, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (key !== 'transaction') return value.bind(target);
      return async (...args: unknown[]) => {
        const run = pending;
        pending = undefined;
        await run?.();
        return value.apply(target, args);
      };
    },
  });
}

describe.each(testDatabaseBackends())('trial enrolment on $name', (backend) => {
  let database: TestDatabase;
  /** Pseudonym → patient id. */
  const ids: Record<string, string> = {};

  /** Eligible patients of the clinic: persona 'forgetful' (F01…), 'busy' (B01…); an extra few set up per test. */
  async function addPatients(prefix: string, persona: string | null, count: number, organisationId = 'clinic', eligible = true) {
    const rows = await database.database
      .insert(patients)
      .values(
        Array.from({ length: count }, (_, index) => ({
          pseudonym: `${prefix}${String(index + 1).padStart(2, '0')}`,
          source: 'test',
          sourceRecordId: `${prefix}-${index}`,
          organisationId,
          persona,
          messagingProgramme: 'fixed-daily' as const,
        })),
      )
      .returning({ id: patients.id, pseudonym: patients.pseudonym });
    for (const row of rows) ids[row.pseudonym] = row.id;
    if (eligible && rows.length > 0) {
      await database.database.insert(dispensings).values(
        rows.map((row) => ({
          patientId: row.id,
          dispensedOn: '2026-11-10',
          daysSupply: 30,
          source: 'test',
          sourceRecordId: `d-${row.pseudonym}`,
        })),
      );
      await database.database.insert(consentEvents).values(
        rows.map((row) => ({
          patientId: row.id,
          channel: 'sms' as const,
          purpose: 'reminders' as const,
          granted: true,
          source: 'profile' as const,
          effectiveAt: new Date('2026-10-01T00:00:00Z'),
        })),
      );
    }
    return rows.map((row) => row.id);
  }

  const create = (input: Record<string, unknown> = {}) =>
    createTrial({
      database: database.database,
      actor: admin,
      input: {
        id: trialId,
        name: 'Adherence 2026',
        startDate: '2026-11-01',
        targetEnrolment: 40,
        analysisPlan: defaultAnalysisPlan,
        ...input,
      },
    });
  const enrol = (patientId: string, actor = clinician, at = now) =>
    enrolTrialParticipant({
      database: database.database,
      actor,
      input: { trialId, patientId, clinicianChecks: checklist, consentRecorded: true },
      now: at,
    });
  const overview = async (at = now) => {
    const found = await getTrialOverview({ database: database.database, trialId, viewer: clinician, now: at });
    if (found === null) throw new Error('no such trial');
    return found;
  };
  const programmeOf = async (patientId: string) =>
    (await database.database.select({ programme: patients.messagingProgramme }).from(patients).where(eq(patients.id, patientId)))[0]!
      .programme;
  const audits = (action: string) =>
    database.database
      .select({ outcome: auditLog.outcome, details: auditLog.details, actor: auditLog.actorUserId })
      .from(auditLog)
      .where(eq(auditLog.action, action))
      .orderBy(auditLog.id);

  beforeEach(async () => {
    database = await backend.create();
    const db = database.database;
    await db
      .insert(authUsers)
      .values(
        ['admin', 'clinician', 'other-clinician', 'patient-user', 'maker'].map((id) => ({ id, name: id, email: `${id}@example.org` })),
      );
    await db.insert(organisations).values([
      { id: 'clinic', name: 'Clinic' },
      { id: 'elsewhere', name: 'Elsewhere' },
    ]);
    await db.insert(organisationMemberships).values([
      { userId: 'clinician', organisationId: 'clinic' },
      { userId: 'other-clinician', organisationId: 'elsewhere' },
    ]);
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('enrols, reveals the arm only in the answer, sets and restores the programme, and counts the CONSORT flow', async () => {
    await create();
    const forgetful = await addPatients('F', 'forgetful', 8);
    const [unconsented] = await addPatients('N', 'forgetful', 1, 'clinic', false);
    expect((await overview()).protocol.status).toBe('set-up');

    const results: ({ patientId: string } & TrialEnrolmentResult)[] = [];
    for (const patientId of forgetful) results.push({ patientId, ...(await enrol(patientId)) });
    expect(results[0]).toMatchObject({ enrolledOn: today, followUpEndsOn: addDaysIso(today, 83) });
    // Blocks of 4 or 6: after 8 in one stratum the arms are at most 3 apart.
    const interventions = results.filter((result) => result.arm === 'intervention');
    expect(Math.abs(interventions.length - (results.length - interventions.length))).toBeLessThanOrEqual(3);
    expect(interventions.length).toBeGreaterThan(0);
    for (const result of results)
      expect(await programmeOf(result.patientId)).toBe(result.arm === 'intervention' ? 'personalised' : 'fixed-daily');
    const rows = await database.database
      .select({ position: trialEnrolments.stratumPosition, stratum: trialEnrolments.stratum, previous: trialEnrolments.previousProgramme })
      .from(trialEnrolments)
      .orderBy(trialEnrolments.stratumPosition);
    expect(rows.map((row) => row.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(new Set(rows.map((row) => `${row.stratum}/${row.previous}`))).toEqual(new Set(['forgetful/fixed-daily']));

    // The system's checks are made again on the server: no reminder consent, no enrolment.
    await expect(enrol(unconsented!)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('consented to medication reminders'),
    });
    await recordTrialExclusion({
      database: database.database,
      actor: clinician,
      input: { trialId, patientId: unconsented, reason: 'not-eligible', detail: 'No reminder consent' },
      now,
    });
    await expect(enrol(forgetful[0]!)).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('already enrolled') });

    // Withdrawal restores the programme the intervention replaced; a control participant's is left alone.
    const intervention = interventions[0]!.patientId;
    const control = results.find((result) => result.arm === 'control')!.patientId;
    const exit = (patientId: string, kind: string, on = today) =>
      recordTrialExit({
        database: database.database,
        actor: clinician,
        input: { trialId, patientId, kind, reason: 'Asked to stop', on },
        now,
      });
    await exit(intervention, 'withdrawn');
    expect(await programmeOf(intervention)).toBe('fixed-daily');
    await exit(control, 'lost-to-follow-up');
    expect(await programmeOf(control)).toBe('fixed-daily');
    const third = results.find((result) => result.patientId !== intervention && result.patientId !== control)!;
    await exit(third.patientId, 'discontinued');
    await expect(exit(intervention, 'lost-to-follow-up')).rejects.toMatchObject({ code: 'conflict' });
    await expect(exit(third.patientId, 'withdrawn', '2026-11-25')).rejects.toMatchObject({
      code: 'validation',
      message: expect.stringContaining('future'),
    });
    await expect(exit(third.patientId, 'withdrawn', '2026-11-23')).rejects.toMatchObject({
      code: 'validation',
      message: expect.stringContaining('before the enrolment'),
    });
    await expect(
      recordTrialExit({
        database: database.database,
        actor: clinician,
        input: { trialId, patientId: control, kind: 'withdrawn', reason: ' ', on: today },
        now,
      }),
    ).rejects.toMatchObject({ code: 'validation', fieldErrors: { reason: 'reason is required.' } });

    const result = await overview();
    const count = (arm: string) => results.filter((entry) => entry.arm === arm).length;
    const thirdArm = third.arm;
    expect(result.consort).toEqual({
      assessed: 9,
      excluded: { total: 1, notEligible: 1, declined: 0, other: 0 },
      randomised: 8,
      arms: {
        control: {
          allocated: count('control'),
          received: count('control'),
          notReceived: 0,
          lostToFollowUp: 1,
          discontinued: thirdArm === 'control' ? 1 : 0,
          withdrawn: 0,
          analysed: count('control'),
          excludedFromAnalysis: 0,
        },
        intervention: {
          allocated: count('intervention'),
          received: count('intervention'),
          notReceived: 0,
          lostToFollowUp: 0,
          discontinued: thirdArm === 'intervention' ? 1 : 0,
          withdrawn: 1,
          analysed: count('intervention'),
          excludedFromAnalysis: 0,
        },
      },
    });
    expect(result.protocol).toMatchObject({ status: 'recruiting', followUpEndsOn: addDaysIso(today, 83), targetEnrolment: 40 });
    expect(result.protocol.analysisPlan).toMatchObject({ text: defaultAnalysisPlan, frozen: true });

    const participants = await listTrialParticipants({ database: database.database, trialId, viewer: clinician, now });
    expect(participants).toHaveLength(8);
    expect(participants.find((participant) => participant.patientId === intervention)).toMatchObject({
      status: 'withdrawn',
      arm: 'intervention',
    });
    expect(participants.find((participant) => participant.patientId === control)).toMatchObject({ status: 'lost-to-follow-up' });
    expect(participants.find((participant) => participant.patientId === third.patientId)).toMatchObject({ status: 'discontinued' });

    // Allocation concealment: no answer carries the seed, the block sizes, a block or a position.
    const [{ seed }] = (await database.database.select({ seed: trials.randomisationSeed }).from(trials)) as [{ seed: number }];
    const candidates = await listTrialCandidates({ database: database.database, trialId, viewer: clinician, now });
    for (const dto of [
      result,
      participants,
      candidates,
      results,
      await getTrialParticipation({ database: database.database, trialId, viewer: admin, now }),
    ]) {
      expect(keysOf(dto).filter((key) => /seed|block|position|stratum/i.test(key))).toEqual([]);
      expect(JSON.stringify(dto)).not.toContain(String(seed));
    }

    // Every step audited, refusals of an input too, with no more than ids about the patient.
    expect((await audits('trial.enrol')).map((row) => row.outcome)).toEqual([...Array(8).fill('success'), 'denied', 'denied']);
    expect((await audits('trial.exit')).map((row) => row.outcome)).toEqual([
      'success',
      'success',
      'success',
      'denied',
      'denied',
      'denied',
      'denied',
    ]);
    const exclusion = (await audits('trial.exclude'))[0]!;
    expect(exclusion.details).toEqual({ trialId, patientId: unconsented, reason: 'not-eligible' });
  });

  it('answers the system checks of candidates, leaves out the enrolled, scopes clinicians to their organisations', async () => {
    await create();
    const [first, second] = await addPatients('F', 'forgetful', 2);
    const [unconsented] = await addPatients('N', null, 1, 'clinic', false);
    const [stopped] = await addPatients('S', 'busy', 1);
    await database.database.insert(consentEvents).values({
      patientId: stopped!,
      channel: 'sms',
      purpose: 'reminders',
      granted: false,
      source: 'sms-keyword',
      effectiveAt: new Date('2026-11-20T00:00:00Z'),
    });
    const [elsewhere] = await addPatients('E', 'forgetful', 1, 'elsewhere');
    // In another trial that is still recruiting: not eligible here.
    await createTrial({
      database: database.database,
      actor: admin,
      input: { id: 'other-trial', name: 'Other trial', startDate: '2026-11-01', targetEnrolment: 10, analysisPlan: defaultAnalysisPlan },
    });
    await enrolTrialParticipant({
      database: database.database,
      actor: admin,
      input: { trialId: 'other-trial', patientId: second, clinicianChecks: checklist, consentRecorded: true },
      now,
    });
    await enrol(first!);

    const candidates = await listTrialCandidates({ database: database.database, trialId, viewer: clinician, now });
    const checks = Object.fromEntries(
      candidates.map((candidate) => [
        candidate.pseudonym,
        Object.fromEntries(candidate.systemChecks.map((check) => [check.criterionId, check.met])),
      ]),
    );
    expect(Object.keys(checks)).toEqual(['F02', 'N01', 'S01']);
    expect(checks.F02).toEqual({ 'on-treatment': true, 'reminder-consent': true, 'no-opt-out': true, 'not-in-another-trial': false });
    expect(checks.N01).toEqual({ 'on-treatment': false, 'reminder-consent': false, 'no-opt-out': true, 'not-in-another-trial': true });
    expect(checks.S01).toEqual({ 'on-treatment': true, 'reminder-consent': false, 'no-opt-out': false, 'not-in-another-trial': true });
    expect(
      (await listTrialCandidates({ database: database.database, trialId, viewer: clinician, now, search: 's' })).map(
        (row) => row.pseudonym,
      ),
    ).toEqual(['S01']);
    expect((await listTrialCandidates({ database: database.database, trialId, viewer: admin, now })).map((row) => row.pseudonym)).toEqual([
      'E01',
      'F02',
      'N01',
      'S01',
    ]);
    expect(
      (await listTrialCandidates({ database: database.database, trialId, viewer: otherClinician, now })).map((row) => row.pseudonym),
    ).toEqual(['E01']);
    expect(unconsented).toBeDefined();
    expect(elsewhere).toBeDefined();
  });

  it('refuses patients, manufacturers and clinicians of another organisation, and audits each refusal', async () => {
    await create();
    const [patientId] = await addPatients('F', 'forgetful', 1);
    await database.database.update(patients).set({ userId: 'patient-user' }).where(eq(patients.id, patientId!));
    const input = { trialId, patientId, clinicianChecks: checklist, consentRecorded: true };
    for (const actor of [actorOf('patient-user', 'patient'), actorOf('maker', 'drug-manufacturer')]) {
      await expect(enrolTrialParticipant({ database: database.database, actor, input, now })).rejects.toMatchObject({ code: 'forbidden' });
      await expect(listTrialCandidates({ database: database.database, trialId, viewer: actor, now })).rejects.toMatchObject({
        code: 'forbidden',
      });
      await expect(listTrialParticipants({ database: database.database, trialId, viewer: actor, now })).rejects.toMatchObject({
        code: 'forbidden',
      });
      await expect(
        create({ id: 'another' }).then(() => createTrial({ database: database.database, actor, input: {} })),
      ).rejects.toMatchObject({ code: 'forbidden' });
      await database.database.delete(trials).where(eq(trials.id, 'another'));
    }
    await expect(createTrial({ database: database.database, actor: clinician, input: {} })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(enrolTrialParticipant({ database: database.database, actor: otherClinician, input, now })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      recordTrialExclusion({ database: database.database, actor: otherClinician, input: { trialId, patientId, reason: 'declined' }, now }),
    ).rejects.toMatchObject({ code: 'not_found' });
    // The checklist must be confirmed in full.
    await expect(
      enrolTrialParticipant({
        database: database.database,
        actor: clinician,
        input: { ...input, clinicianChecks: { ...checklist, adult: false } },
        now,
      }),
    ).rejects.toMatchObject({ code: 'validation', message: expect.stringContaining('clinicianChecks.adult') });
    await expect(
      enrolTrialParticipant({ database: database.database, actor: clinician, input: { ...input, consentRecorded: false }, now }),
    ).rejects.toMatchObject({ code: 'validation', fieldErrors: { consentRecorded: expect.any(String) } });
    const enrolAudits = await audits('trial.enrol');
    expect(enrolAudits.map((row) => [row.outcome, row.actor])).toEqual([
      ['denied', 'patient-user'],
      ['denied', 'maker'],
      ['denied', 'other-clinician'],
      ['denied', 'clinician'],
      ['denied', 'clinician'],
    ]);
    // A refused input names the fields at fault, not what was sent.
    expect(enrolAudits[3]!.details).toMatchObject({ trialId, patientId, fields: ['clinicianChecks'] });
    expect(enrolAudits[4]!.details).toMatchObject({ fields: ['consentRecorded'] });
    expect(await database.database.select({ id: trialEnrolments.patientId }).from(trialEnrolments)).toEqual([]);

    // The patient sees their own participation only once enrolled; everyone sees the overview.
    const patientViewer = actorOf('patient-user', 'patient');
    expect(await getTrialParticipation({ database: database.database, trialId, viewer: patientViewer, now })).toEqual({ enrolled: false });
    const enrolled = await enrol(patientId!);
    expect(await getTrialParticipation({ database: database.database, trialId, viewer: patientViewer, now })).toEqual({
      enrolled: true,
      arm: enrolled.arm,
      enrolledOn: today,
      followUpEndsOn: enrolled.followUpEndsOn,
      status: 'in-follow-up',
    });
    expect(
      await getTrialParticipation({ database: database.database, trialId, viewer: actorOf('maker', 'drug-manufacturer'), now }),
    ).toEqual({
      enrolled: false,
    });
    expect((await getTrialOverview({ database: database.database, trialId, viewer: patientViewer, now }))!.consort.randomised).toBe(1);
    await expect(getTrialOverview({ database: database.database, trialId, viewer: null, now })).rejects.toMatchObject({
      code: 'unauthenticated',
    });
  });

  it('freezes the analysis plan once enrolment starts: the use case refuses, and so does the trigger', async () => {
    const created = await create();
    const update = (analysisPlan: string, actor = admin) =>
      updateTrialAnalysisPlan({ database: database.database, actor, input: { trialId, analysisPlan } });
    const changed = await update(`${defaultAnalysisPlan}\nSensitivity: per protocol.`);
    expect(changed.analysisPlanSha256).not.toBe(created.analysisPlanSha256);
    expect(changed.analysisPlanSha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await overview()).protocol.analysisPlan).toEqual({
      text: `${defaultAnalysisPlan}\nSensitivity: per protocol.`,
      sha256: changed.analysisPlanSha256,
      frozen: false,
    });
    await expect(update(defaultAnalysisPlan, clinician)).rejects.toMatchObject({ code: 'forbidden' });

    const [patientId] = await addPatients('F', 'forgetful', 1);
    await enrol(patientId!);
    await expect(update(defaultAnalysisPlan)).rejects.toMatchObject({ code: 'conflict', message: analysisPlanFrozenMessage });
    expect((await overview()).protocol.analysisPlan).toMatchObject({ sha256: changed.analysisPlanSha256, frozen: true });

    // Any other path meets the trigger, whose error the use case maps to the same message.
    let triggerError: unknown;
    try {
      await database.database.update(trials).set({ analysisPlan: 'changed behind the use case' }).where(eq(trials.id, trialId));
    } catch (error) {
      triggerError = error;
    }
    expect(isFrozenPlanError(triggerError)).toBe(true);
    expect(isFrozenPlanError(new Error('something else'))).toBe(false);
    // Other columns may still change.
    await database.database.update(trials).set({ recruitmentClosedOn: '2026-12-31' }).where(eq(trials.id, trialId));
    expect((await audits('trial.analysis-plan.update')).map((row) => row.outcome)).toEqual(['success', 'denied', 'denied']);
  });

  // PostgreSQL only: PGlite runs one transaction at a time, so there an enrolment is never in progress while the
  // plan changes, and the check and the trigger always see it (the test above).
  it.runIf(backend.name === 'postgres')(
    'waits for an enrolment in progress before changing the analysis plan, then refuses: the plan is frozen',
    async () => {
      const created = await create();
      const [patientId] = await addPatients('F', 'forgetful', 1);
      const pool = database.driver as pg.Pool;
      const enrolling = await pool.connect();
      try {
        // An enrolment in progress: the trial's lock taken, its row written, not yet committed (invisible to
        // the use case's check and to the trigger's EXISTS).
        await enrolling.query('begin');
        await enrolling.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`trial-enrolment:${trialId}`]);
        await enrolling.query(
          "insert into trial_enrolments (trial_id, patient_id, arm, stratum, enrolled_on) values ($1, $2, 'control', 'forgetful', $3)",
          [trialId, patientId, today],
        );
        const updating = updateTrialAnalysisPlan({
          database: database.database,
          actor: admin,
          input: { trialId, analysisPlan: `${defaultAnalysisPlan}\nChanged during enrolment.` },
        }).then(
          () => 'updated' as const,
          (error: unknown) => error,
        );
        const waitingForLock = async () => {
          for (let attempt = 0; attempt < 200; attempt += 1) {
            const { rows } = await pool.query<{ waiting: number }>(
              "select count(*)::int as waiting from pg_locks where locktype = 'advisory' and not granted",
            );
            if (rows[0]!.waiting > 0) return 'waiting' as const;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          return 'not waiting' as const;
        };
        expect(await Promise.race([updating, waitingForLock()])).toBe('waiting');
        await enrolling.query('commit');
        expect(await updating).toMatchObject({ code: 'conflict', message: analysisPlanFrozenMessage });
      } finally {
        await enrolling.query('rollback').catch(() => undefined);
        enrolling.release();
      }
      expect((await overview()).protocol.analysisPlan).toMatchObject({ sha256: created.analysisPlanSha256, frozen: true });
      expect((await audits('trial.analysis-plan.update')).map((row) => row.outcome)).toEqual(['denied']);
    },
  );

  it('moves through set-up, recruiting, follow-up and complete; refuses enrolment once recruitment is closed', async () => {
    await create({ targetEnrolment: 3 });
    const patientIds = await addPatients('F', 'forgetful', 4);
    const statusOn = async (at: Date) => (await overview(at)).protocol.status;
    expect(await statusOn(now)).toBe('set-up');
    await enrol(patientIds[0]!);
    expect(await statusOn(now)).toBe('recruiting');
    await enrol(patientIds[1]!, clinician, new Date('2026-11-25T10:00:00Z'));
    await enrol(patientIds[2]!, clinician, new Date('2026-11-25T10:00:00Z'));
    expect(await statusOn(new Date('2026-11-25T12:00:00Z'))).toBe('follow-up');
    const late = new Date('2026-11-25T12:00:00Z');
    await expect(enrol(patientIds[3]!, clinician, late)).rejects.toMatchObject({ code: 'conflict', message: recruitmentClosedMessage });
    await expect(
      recordTrialExclusion({
        database: database.database,
        actor: clinician,
        input: { trialId, patientId: patientIds[3], reason: 'declined' },
        now: late,
      }),
    ).rejects.toMatchObject({ message: recruitmentClosedMessage });
    // The first participant's 84 days end on 15 February 2027; the others' a day later.
    expect((await overview(late)).protocol.followUpEndsOn).toBe('2027-02-16');
    expect(await statusOn(new Date('2027-02-16T12:00:00Z'))).toBe('follow-up');
    expect(await statusOn(new Date('2027-02-17T00:00:00Z'))).toBe('complete');
    // Withdrawal ends a participant's follow-up early: with everyone gone the trial is complete sooner.
    for (const patientId of patientIds.slice(0, 3))
      await recordTrialExit({
        database: database.database,
        actor: admin,
        input: { trialId, patientId, kind: 'withdrawn', reason: 'Moved away', on: '2026-11-26' },
        now: new Date('2026-11-26T12:00:00Z'),
      });
    expect(await statusOn(new Date('2026-11-26T12:00:00Z'))).toBe('complete');
  });

  it('closes recruitment on its closing date', async () => {
    await create({ recruitmentClosedOn: '2026-11-30' });
    const [patientId, late] = await addPatients('F', 'forgetful', 2);
    // Nobody enrolled by the closing date: still set up, and closed to enrolment.
    await expect(enrol(late!, clinician, new Date('2026-11-30T09:00:00Z'))).rejects.toMatchObject({ message: recruitmentClosedMessage });
    expect((await overview(new Date('2026-11-30T09:00:00Z'))).protocol.status).toBe('set-up');
    await enrol(patientId!);
    expect((await overview(new Date('2026-11-29T23:00:00Z'))).protocol.status).toBe('recruiting');
    expect((await overview(new Date('2026-11-30T00:00:00Z'))).protocol.status).toBe('follow-up');
  });

  it('gives concurrent enrolments in one stratum distinct positions, and keeps the stratum balanced', async () => {
    await create();
    const patientIds = await addPatients('F', 'forgetful', 12);
    const results = await Promise.all(patientIds.map((patientId) => enrol(patientId)));
    const rows = await database.database
      .select({ position: trialEnrolments.stratumPosition, arm: trialEnrolments.arm })
      .from(trialEnrolments)
      .where(and(eq(trialEnrolments.trialId, trialId), eq(trialEnrolments.stratum, 'forgetful')))
      .orderBy(trialEnrolments.stratumPosition);
    expect(rows.map((row) => row.position)).toEqual(Array.from({ length: 12 }, (_, index) => index));
    let balance = 0;
    for (const row of rows) {
      balance += row.arm === 'control' ? 1 : -1;
      expect(Math.abs(balance)).toBeLessThanOrEqual(3);
    }
    expect(results.map((result) => result.arm).sort()).toEqual(rows.map((row) => row.arm).sort());
    const [{ screened }] = (await database.database.select({ screened: sql<number>`count(*)::int` }).from(trialScreenings)) as [
      { screened: number },
    ];
    expect(screened).toBe(12);
  });

  it('counts a seeded enrolment without a screening row as assessed, and a re-assessment replaces an exclusion', async () => {
    await create();
    const [seeded, excluded] = await addPatients('F', 'forgetful', 2);
    await database.database
      .insert(trialEnrolments)
      .values({ trialId, patientId: seeded!, arm: 'control', stratum: 'forgetful', enrolledOn: '2026-11-01' });
    await recordTrialExclusion({
      database: database.database,
      actor: clinician,
      input: { trialId, patientId: excluded, reason: 'declined' },
      now,
    });
    expect((await overview()).consort).toMatchObject({ assessed: 2, excluded: { total: 1, declined: 1 }, randomised: 1 });
    await expect(
      recordTrialExclusion({
        database: database.database,
        actor: clinician,
        input: { trialId, patientId: excluded, reason: 'other' },
        now,
      }),
    ).rejects.toMatchObject({ code: 'validation', fieldErrors: { detail: expect.any(String) } });
    // The seeded enrolment is position 0 of the stratum in effect: the next one takes position 1.
    await enrol(excluded!);
    expect((await overview()).consort).toMatchObject({ assessed: 2, excluded: { total: 0 }, randomised: 2 });
    const [row] = await database.database
      .select({ position: trialEnrolments.stratumPosition })
      .from(trialEnrolments)
      .where(eq(trialEnrolments.patientId, excluded!));
    expect(row!.position).toBe(1);
    await expect(
      recordTrialExclusion({
        database: database.database,
        actor: clinician,
        input: { trialId, patientId: excluded, reason: 'declined' },
        now,
      }),
    ).rejects.toMatchObject({ code: 'conflict' });
  });

  it('refuses an exclusion when a colleague enrols the patient between its check and its write; the screening stays enrolled', async () => {
    await create();
    const [patientId] = await addPatients('F', 'forgetful', 1);
    let enrolled: TrialEnrolmentResult | undefined;
    // The colleague's enrolment commits just as the exclusion opens its transaction: before the fix, after
    // the exclusion had read "not enrolled" and before it wrote its screening.
    const excluding = recordTrialExclusion({
      database: runningFirst(database.database, async () => {
        enrolled = await enrol(patientId!);
      }),
      actor: clinician,
      input: { trialId, patientId, reason: 'declined' },
      now,
    });
    await expect(excluding).rejects.toMatchObject({ code: 'conflict', message: enrolledPatientMessage });
    expect(enrolled).toBeDefined();
    const [screening] = await database.database
      .select({ outcome: trialScreenings.outcome, reason: trialScreenings.exclusionReason })
      .from(trialScreenings)
      .where(eq(trialScreenings.patientId, patientId!));
    expect(screening).toEqual({ outcome: 'enrolled', reason: null });
    expect((await overview()).consort).toMatchObject({ assessed: 1, excluded: { total: 0 }, randomised: 1 });
    expect((await audits('trial.exclude')).map((row) => row.outcome)).toEqual(['denied']);
  });

  it('never leaves an enrolled patient counted as excluded when an exclusion and an enrolment run together', async () => {
    await create();
    const patientIds = await addPatients('F', 'forgetful', 6);
    const exclude = (patientId: string) =>
      recordTrialExclusion({ database: database.database, actor: clinician, input: { trialId, patientId, reason: 'declined' }, now });
    // Half start with the exclusion, half with the enrolment. PGlite runs one transaction at a time, so there
    // this passes with or without the row lock; on PostgreSQL they race for real (without the lock it failed
    // there), and the two locks (enrolment: trial then patient; exclusion: patient) never deadlock.
    const results = await Promise.allSettled(
      patientIds.flatMap((patientId, index) =>
        index % 2 === 0 ? [exclude(patientId), enrol(patientId)] : [enrol(patientId), exclude(patientId)],
      ),
    );
    for (const result of results)
      if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'conflict', message: enrolledPatientMessage });
    const screenings = await database.database.select({ outcome: trialScreenings.outcome }).from(trialScreenings);
    expect(screenings.map((row) => row.outcome)).toEqual(patientIds.map(() => 'enrolled'));
    expect((await overview()).consort).toMatchObject({ assessed: 6, excluded: { total: 0 }, randomised: 6 });
  });

  it('puts the intervention arm on the learning policy in the daily loop, and gives the old programme back on withdrawal', async () => {
    await create();
    const patientIds = await addPatients('F', 'forgetful', 6);
    await database.database.update(patients).set({ timezone: 'Europe/Madrid' });
    const arms = new Map<string, string>();
    for (const patientId of patientIds) arms.set(patientId, (await enrol(patientId)).arm);
    const intervention = patientIds.find((patientId) => arms.get(patientId) === 'intervention')!;
    const control = patientIds.find((patientId) => arms.get(patientId) === 'control')!;
    const policiesOn = async (localDate: string) =>
      new Map(
        (
          await database.database
            .select({ patientId: policyDecisions.patientId, policy: policyDecisions.policyName })
            .from(policyDecisions)
            .where(eq(policyDecisions.localDate, localDate))
        ).map((row) => [row.patientId, row.policy]),
      );
    // 10:00 UTC is 11:00 in Madrid: past the planning time.
    await planMessagingDay({ database: database.database, now });
    const first = await policiesOn(today);
    expect(first.get(intervention)).toBe('personalised');
    expect(first.get(control)).toBe('fixed-daily');
    await recordTrialExit({
      database: database.database,
      actor: clinician,
      input: { trialId, patientId: intervention, kind: 'withdrawn', reason: 'Prefers the daily reminder', on: today },
      now,
    });
    await planMessagingDay({ database: database.database, now: new Date('2026-11-25T10:00:00Z') });
    expect((await policiesOn('2026-11-25')).get(intervention)).toBe('fixed-daily');
  });
});
