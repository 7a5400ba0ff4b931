import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { demoCompanies, demoProducts } from '@/engine/simulation/demo-catalogue';
import { allocateAtPosition } from '@/engine/trial/allocation-sequence';
import { defaultAnalysisPlan } from '@/features/trials';
import { seedDemoDataset, trialCohortA } from './seed-demo-dataset';

// A small cohort keeps the database tests quick; the full 2,000 is measured in the README (Benchmarks).
const small = { patientCount: 120, trialSize: 48 } as const;

async function rows<T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.execute(query)) as unknown as { rows: T[] }).rows;
}

async function tableCounts(database: Database): Promise<Record<string, number>> {
  const [counts] = await rows<Record<string, number>>(
    database,
    sql`select
      (select count(*)::int from drug_companies) as companies,
      (select count(*)::int from products) as products,
      (select count(*)::int from patients where synthetic and source = 'simulation') as patients,
      (select count(*)::int from regimens where source = 'simulation') as regimens,
      (select count(*)::int from dispensings where source = 'simulation') as dispensings,
      (select count(*)::int from dose_events where source = 'simulation') as dose_events,
      (select count(*)::int from messages where source = 'simulation') as messages,
      (select count(*)::int from trials) as trials,
      (select count(*)::int from trial_screenings) as screenings,
      (select count(*)::int from trial_enrolments) as enrolments,
      (select count(*)::int from survey_responses) as survey_responses`,
  );
  return counts ?? {};
}

/** One digest per table of every stored value, in a fixed order: equal digests, equal data. */
async function contentDigest(database: Database): Promise<Record<string, string>> {
  const [digest] = await rows<Record<string, string>>(
    database,
    sql`select
      (select md5(string_agg(p::text, '|' order by p.source_record_id)) from (select id, pseudonym, source_record_id, persona, age_band, sex, region, language, timezone, preferred_channel, conditions from patients) p) as patients,
      (select md5(string_agg(c::text, '|' order by c.patient_id, c.channel, c.purpose)) from (select patient_id, channel, purpose, granted, source, effective_at from consent_events) c) as consent_events,
      (select md5(string_agg(d::text, '|' order by d.source_record_id)) from (select id, patient_id, product_id, dispensed_on, days_supply, quantity, source_record_id from dispensings) d) as dispensings,
      (select md5(string_agg(e::text, '|' order by e.source_record_id)) from (select id, patient_id, product_id, scheduled_at, confirmed_at, status, source_record_id from dose_events) e) as dose_events,
      (select md5(string_agg(m::text, '|' order by m.source_record_id)) from (select id, patient_id, channel, direction, category, framing, template_id, sent_at, status, status_history, reply_text, source_record_id from messages) m) as messages,
      (select md5(string_agg(s::text, '|' order by s.patient_id)) from (select patient_id, assessed_on, outcome, exclusion_reason, exclusion_detail, eligibility from trial_screenings) s) as screenings,
      (select md5(string_agg(t::text, '|' order by t.patient_id)) from (select patient_id, arm, stratum, block, stratum_position, enrolled_on, consent_recorded_at, previous_programme, received_allocation, discontinued_on, discontinued_reason from trial_enrolments) t) as enrolments,
      (select md5(t::text) from (select id, start_date, weeks, protocol, analysis_plan, analysis_plan_sha256, target_enrolment, recruitment_closed_on, randomisation_seed, block_sizes, synthetic from trials) t) as trial`,
  );
  return digest ?? {};
}

/**
 * The history's rows (everything of a patient's local days up to 31 Dec 2025) in a text that does not depend
 * on the session's time zone, digested per table. The trial's weeks are added after the history; they must
 * not change it.
 */
async function historyDigest(database: Database): Promise<Record<string, string | number>> {
  const [digest] = await rows<Record<string, string | number>>(
    database,
    sql`with
      history_doses as (select e.* from dose_events e join patients p on p.id = e.patient_id where (e.scheduled_at at time zone p.timezone)::date < '2026-01-01'),
      outbound_days as (select m.source_record_id, (m.sent_at at time zone p.timezone)::date as day from messages m join patients p on p.id = m.patient_id where m.direction = 'outbound'),
      -- A reply ('<message>-r') belongs to the day of the message it answers.
      history_messages as (select m.* from messages m join outbound_days o on o.source_record_id = regexp_replace(m.source_record_id, '-r$', '')
        where o.day < '2026-01-01')
    select
      (select count(*)::int from history_doses) as dose_event_count,
      (select count(*)::int from history_messages) as message_count,
      (select count(*)::int from dispensings where dispensed_on < '2026-01-01') as dispensing_count,
      (select md5(string_agg(concat_ws(',', source_record_id, patient_id, product_id, dispensed_on, days_supply, quantity), '|' order by source_record_id))
        from dispensings where dispensed_on < '2026-01-01') as dispensings,
      (select md5(string_agg(concat_ws(',', source_record_id, patient_id, product_id, extract(epoch from scheduled_at)::bigint,
        extract(epoch from confirmed_at)::bigint, status), '|' order by source_record_id)) from history_doses) as dose_events,
      (select md5(string_agg(concat_ws(',', source_record_id, patient_id, channel, direction, category, framing, template_id,
        extract(epoch from sent_at)::bigint, status, status_history::text, reply_text), '|' order by source_record_id)) from history_messages) as messages,
      (select md5(string_agg(concat_ws(',', source_record_id, patient_id, product_id, doses_per_day, dose_times::text, start_date, days_per_fill, quantity_per_fill), '|' order by source_record_id))
        from regimens) as regimens,
      (select md5(string_agg(concat_ws(',', patient_id, channel, purpose, granted, extract(epoch from effective_at)::bigint), '|' order by patient_id, channel, purpose))
        from consent_events) as consent_events`,
  );
  return digest ?? {};
}

describe.each(testDatabaseBackends())('demo dataset on $name', (backend) => {
  const databases: TestDatabase[] = [];
  const fresh = async () => {
    const database = await backend.create();
    databases.push(database);
    return database.database;
  };
  afterEach(async () => {
    await Promise.all(databases.splice(0).map((database) => database.dispose()));
  });
  // The tests that only read the default seed's rows share one seeded database: seeding is most of this file's
  // time (it took 158 s of CI when every test seeded its own). Tests that write, or need another seed, make theirs.
  let shared:
    Promise<{ database: Database; result: Awaited<ReturnType<typeof seedDemoDataset>>; dispose: () => Promise<void> }> | undefined;
  const seededOnce = () => {
    shared ??= backend.create().then(async (created) => ({
      database: created.database,
      result: await seedDemoDataset({ database: created.database, ...small }),
      dispose: () => created.dispose(),
    }));
    return shared;
  };
  afterAll(async () => {
    if (shared !== undefined) await (await shared).dispose();
  });

  it('loads the catalogue, the cohort with its history and the randomised trial cohort', { timeout: 120_000 }, async () => {
    const { database, result } = await seededOnce();
    if (!result.seeded) throw new Error('expected the dataset to be loaded');
    const counts = await tableCounts(database);
    expect(counts).toMatchObject({
      companies: demoCompanies.length,
      products: demoProducts.length,
      patients: small.patientCount,
      trials: 1,
    });
    expect(result.inserted).toEqual({
      companies: demoCompanies.length,
      products: demoProducts.length,
      patients: small.patientCount,
      regimens: counts.regimens,
      dispensings: counts.dispensings,
      doseEvents: counts.dose_events,
      messages: counts.messages,
      trialScreenings: counts.screenings,
      trialEnrolments: counts.enrolments,
      surveyResponses: counts.survey_responses,
    });
    // About 60% of the patients began each of the two surveys (in the form or by message; some left it unfinished).
    expect(counts.survey_responses).toBeGreaterThan(small.patientCount * 0.8);
    expect(counts.survey_responses).toBeLessThan(small.patientCount * 1.6);
    // A year of history: every patient has a regimen and dispensings; dose events and messages are plentiful.
    expect(counts.regimens).toBeGreaterThanOrEqual(small.patientCount);
    expect(counts.dispensings).toBeGreaterThan(small.patientCount * 4);
    expect(counts.dose_events).toBeGreaterThan(small.patientCount * 100);
    expect(counts.messages).toBeGreaterThan(small.patientCount * 20);
    expect(result.programmes['fixed-daily'] + result.programmes['fixed-weekly'] + result.programmes.none).toBe(small.patientCount);

    // The history ends on 31 Dec 2025; only the trial's participants have records of its 12 weeks after it.
    const [span] = await rows<{ first: string; last: string; unknown: number; synthetic: number; after_history_outside_trial: number }>(
      database,
      sql`select min(e.scheduled_at at time zone p.timezone)::date::text as first, max(e.scheduled_at at time zone p.timezone)::date::text as last,
        count(*) filter (where e.status = 'unknown')::int as unknown,
        (select count(*)::int from patients where not synthetic) as synthetic,
        count(*) filter (where (e.scheduled_at at time zone p.timezone)::date >= '2026-01-01'
          and not exists (select 1 from trial_enrolments t where t.patient_id = e.patient_id))::int as after_history_outside_trial
        from dose_events e join patients p on p.id = e.patient_id`,
    );
    expect(span).toEqual({ first: '2025-01-01', last: '2026-03-25', unknown: 0, synthetic: 0, after_history_outside_trial: 0 });
    const [afterHistory] = await rows<{ dispensings: number; messages: number; participants_with_doses: number }>(
      database,
      sql`select (select count(*)::int from dispensings d where d.dispensed_on >= '2026-01-01'
          and not exists (select 1 from trial_enrolments t where t.patient_id = d.patient_id)) as dispensings,
        (select count(*)::int from messages m join patients p on p.id = m.patient_id where m.direction = 'outbound'
          and (m.sent_at at time zone p.timezone)::date >= '2026-01-01'
          and not exists (select 1 from trial_enrolments t where t.patient_id = m.patient_id)) as messages,
        (select count(distinct e.patient_id)::int from dose_events e join patients p on p.id = e.patient_id
          where (e.scheduled_at at time zone p.timezone)::date >= '2026-01-01') as participants_with_doses`,
    );
    expect(afterHistory).toMatchObject({ dispensings: 0, messages: 0 });
    expect(afterHistory?.participants_with_doses).toBeGreaterThan(small.trialSize / 2);

    const [trial] = await rows<{
      id: string;
      name: string;
      weeks: number;
      start_date: string;
      protocol: Record<string, unknown>;
      analysis_plan: string;
      analysis_plan_sha256: string;
      target_enrolment: number;
      recruitment_closed_on: string;
      randomisation_seed: number;
      block_sizes: number[];
      synthetic: boolean;
    }>(
      database,
      sql`select id, name, weeks, start_date::text, protocol, analysis_plan, analysis_plan_sha256, target_enrolment,
        recruitment_closed_on::text, randomisation_seed, block_sizes, synthetic from trials`,
    );
    expect(trial).toMatchObject({
      id: 'cohort-a',
      name: trialCohortA.name,
      weeks: 12,
      start_date: '2026-01-01',
      analysis_plan: defaultAnalysisPlan,
      analysis_plan_sha256: createHash('sha256').update(defaultAnalysisPlan).digest('hex'),
      target_enrolment: small.trialSize,
      recruitment_closed_on: '2026-01-01',
      randomisation_seed: 1,
      block_sizes: [4, 6],
      synthetic: true,
    });
    expect(trial?.protocol).toMatchObject({ dataset: 'synthetic demo data', targetEnrolment: small.trialSize, weeks: 12 });
    expect(trial?.protocol.arms).toMatchObject({
      control: { description: expect.stringMatching(/^The standard programme: /) },
      intervention: { description: expect.stringMatching(/^Personalised messages chosen by the learning policy/) },
    });
    // Concealment: nothing of the sequence's parameters in what the page shows.
    expect(JSON.stringify(trial?.protocol)).not.toMatch(/seed|blockSize/i);
    expect(counts.enrolments).toBe(small.trialSize);
    expect(result.arms.control + result.arms.intervention).toBe(small.trialSize);
    expect(result.trialAdherence.control).toBeGreaterThan(0);
    expect(result.trialAdherence.intervention).toBeGreaterThan(0);
  });

  it(
    'screens every synthetic patient: enrolled, not eligible with the unmet criteria, or beyond the target',
    { timeout: 120_000 },
    async () => {
      const { database } = await seededOnce();
      const outcomes = await rows<{ outcome: string; reason: string | null; detail: string | null; count: number; enrolled: number }>(
        database,
        sql`select s.outcome, s.exclusion_reason as reason, case when s.exclusion_reason = 'not-eligible' then null else s.exclusion_detail end as detail,
        count(*)::int as count, count(t.patient_id)::int as enrolled
        from trial_screenings s left join trial_enrolments t on t.patient_id = s.patient_id and t.trial_id = s.trial_id
        where s.assessed_on = '2026-01-01' group by 1, 2, 3 order by 1, 2`,
      );
      expect(outcomes).toEqual([
        { outcome: 'enrolled', reason: null, detail: null, count: small.trialSize, enrolled: small.trialSize },
        expect.objectContaining({ outcome: 'excluded', reason: 'not-eligible', enrolled: 0 }),
        expect.objectContaining({ outcome: 'excluded', reason: 'other', detail: 'target enrolment reached', enrolled: 0 }),
      ]);
      expect(outcomes.reduce((total, row) => total + row.count, 0)).toBe(small.patientCount);
      // The detail names each unmet criterion, and the checklist says which.
      const notEligible = await rows<{ detail: string; eligibility: Record<string, boolean> }>(
        database,
        sql`select exclusion_detail as detail, eligibility from trial_screenings where exclusion_reason = 'not-eligible'`,
      );
      for (const { detail, eligibility } of notEligible) {
        const unmet = Object.entries(eligibility).filter(([, met]) => !met);
        expect(unmet.length).toBeGreaterThan(0);
        expect(detail.split('; ').length).toBe(unmet.length);
      }
      const enrolled = await rows<{ eligibility: Record<string, boolean>; consent: boolean; programme: string | null; received: boolean }>(
        database,
        sql`select s.eligibility, t.consent_recorded_at is not null as consent, t.previous_programme as programme, t.received_allocation as received
        from trial_screenings s join trial_enrolments t on t.patient_id = s.patient_id`,
      );
      for (const row of enrolled) {
        expect(Object.values(row.eligibility).every(Boolean)).toBe(true);
        expect(row).toMatchObject({ consent: true, received: true });
        expect(['none', 'fixed-daily', 'fixed-weekly']).toContain(row.programme);
      }
    },
  );

  it('records an exit only where the simulation made one: a STOP reply during the trial', { timeout: 120_000 }, async () => {
    const database = await fresh();
    // Seed 1: two participants reply STOP during the trial (the simulator's; found by running seeds 1–40).
    await seedDemoDataset({ database, ...small, seed: 1 });
    const exits = await rows<{ discontinued: number; stops: number; matching: number; other_exits: number }>(
      database,
      sql`with trial_stops as (select m.patient_id, min((m.sent_at at time zone p.timezone)::date) as day from messages m
          join patients p on p.id = m.patient_id where m.direction = 'inbound' and m.reply_text = 'STOP'
          and (m.sent_at at time zone p.timezone)::date >= '2026-01-01' group by m.patient_id)
        select count(*) filter (where t.discontinued_on is not null)::int as discontinued,
          (select count(*)::int from trial_stops) as stops,
          count(*) filter (where t.discontinued_on = s.day and t.discontinued_reason = 'replied STOP')::int as matching,
          count(*) filter (where t.withdrawn_on is not null or t.lost_to_follow_up_on is not null)::int as other_exits
        from trial_enrolments t left join trial_stops s on s.patient_id = t.patient_id`,
    );
    expect(exits[0]).toMatchObject({ other_exits: 0 });
    expect(exits[0]?.stops).toBeGreaterThan(0);
    expect(exits[0]?.discontinued).toBe(exits[0]?.stops);
    expect(exits[0]?.matching).toBe(exits[0]?.stops);
  });

  it(
    'sends the intervention arm the personalised policy’s varied messages, and the control arm its programme',
    { timeout: 120_000 },
    async () => {
      const { database } = await seededOnce();
      const arms = await rows<{ arm: string; programme: string; messages: number; kinds: number; categories: number; framings: number }>(
        database,
        sql`select t.arm, t.previous_programme as programme, count(m.id)::int as messages,
        count(distinct (m.category, m.framing))::int as kinds, count(distinct m.category)::int as categories, count(distinct m.framing)::int as framings
        from trial_enrolments t join patients p on p.id = t.patient_id
        left join messages m on m.patient_id = t.patient_id and m.direction = 'outbound' and (m.sent_at at time zone p.timezone)::date >= '2026-01-01'
        group by 1, 2 order by 1, 2`,
      );
      const of = (arm: string, programme: string) => arms.find((row) => row.arm === arm && row.programme === programme);
      // Control: the daily reminder stays one kind of message; no programme, no messages.
      expect(of('control', 'fixed-daily')).toMatchObject({ kinds: 1 });
      expect(of('control', 'fixed-daily')?.messages).toBeGreaterThan(0);
      expect(of('control', 'none')?.messages ?? 0).toBe(0);
      // Intervention: whatever the programme before, the learning policy's choice of category and framing.
      const intervention = await rows<{ messages: number; categories: number; framings: number }>(
        database,
        sql`select count(m.id)::int as messages, count(distinct m.category)::int as categories, count(distinct m.framing)::int as framings
        from trial_enrolments t join patients p on p.id = t.patient_id
        join messages m on m.patient_id = t.patient_id and m.direction = 'outbound' and (m.sent_at at time zone p.timezone)::date >= '2026-01-01'
        where t.arm = 'intervention'`,
      );
      expect(intervention[0]?.messages).toBeGreaterThan(small.trialSize);
      expect(intervention[0]?.categories).toBeGreaterThanOrEqual(4);
      expect(intervention[0]?.framings).toBeGreaterThanOrEqual(3);
    },
  );

  it('leaves the history exactly as it was before the trial was simulated', { timeout: 120_000 }, async () => {
    const { database } = await seededOnce();
    // Measured on the seed before the trial's weeks were added (commit 6d78a64): the same rows, to the value.
    expect(await historyDigest(database)).toEqual({
      dose_event_count: 33772,
      message_count: 12812,
      dispensing_count: 1254,
      dispensings: '6685c1a13c2e336783641d684e5f6994',
      dose_events: '7449a81f0086bb07e184ee2a50cf22d9',
      messages: 'af7a935b04eae721bb0cc70764ed175b',
      regimens: '8461ddef8555ad535d89aac946408fd5',
      consent_events: '3cd1c02fe11e784577af87c329ec0774',
    });
  });

  it(
    'allocates from the live concealed sequences, within every stratum, so live enrolment continues them',
    { timeout: 120_000 },
    async () => {
      const { database } = await seededOnce();
      const [trial] = await rows<{ seed: number; block_sizes: number[] }>(
        database,
        sql`select randomisation_seed as seed, block_sizes from trials where id = 'cohort-a'`,
      );
      const enrolments = await rows<{ stratum: string; arm: string; block: number; position: number; persona: string }>(
        database,
        sql`select e.stratum, e.arm, e.block, e.stratum_position as position, p.persona from trial_enrolments e join patients p on p.id = e.patient_id
        order by e.stratum, e.stratum_position`,
      );
      const strata = new Map<string, typeof enrolments>();
      for (const enrolment of enrolments) strata.set(enrolment.stratum, [...(strata.get(enrolment.stratum) ?? []), enrolment]);
      expect(strata.size).toBeGreaterThan(1);
      for (const [stratum, members] of strata) {
        // Positions 0, 1, … with no gap: the next live enrolment takes the stratum's count as its position.
        expect(members.map((member) => member.position)).toEqual(members.map((_, index) => index));
        for (const member of members) {
          expect(member.persona).toBe(stratum);
          expect({ arm: member.arm, block: member.block }).toEqual(
            allocateAtPosition({ seed: trial!.seed, stratum, blockSizes: trial!.block_sizes, position: member.position }),
          );
        }
        const control = members.filter((member) => member.arm === 'control').length;
        expect(Math.abs(2 * control - members.length)).toBeLessThanOrEqual(3);
        // Every block but the last is complete and balanced, of size 4 or 6.
        const lastBlock = Math.max(...members.map((member) => member.block));
        for (let block = 1; block < lastBlock; block += 1) {
          const inBlock = members.filter((member) => member.block === block);
          expect([4, 6]).toContain(inBlock.length);
          expect(inBlock.filter((member) => member.arm === 'control').length).toBe(inBlock.length / 2);
        }
      }
    },
  );

  it('loads only into a database without synthetic patients, and loading again changes nothing', { timeout: 180_000 }, async () => {
    const database = await fresh();
    await seedDemoDataset({ database, ...small });
    const before = { counts: await tableCounts(database), digest: await contentDigest(database) };

    expect(await seedDemoDataset({ database, ...small })).toEqual({ seeded: false, syntheticPatients: small.patientCount });
    // Forced past the check, every insert meets its own rows and skips them.
    const forced = await seedDemoDataset({ database, ...small, force: true });
    expect(forced).toMatchObject({
      seeded: true,
      inserted: {
        companies: 0,
        products: 0,
        patients: 0,
        regimens: 0,
        dispensings: 0,
        doseEvents: 0,
        messages: 0,
        trialScreenings: 0,
        trialEnrolments: 0,
        surveyResponses: 0,
      },
    });
    expect(await tableCounts(database)).toEqual(before.counts);
    expect(await contentDigest(database)).toEqual(before.digest);
  });

  it('gives the same rows, ids and allocations for the same seed, and other ones for another seed', { timeout: 180_000 }, async () => {
    const { database: first } = await seededOnce();
    const [second, other] = [await fresh(), await fresh()];
    await seedDemoDataset({ database: second, ...small });
    await seedDemoDataset({ database: other, ...small, seed: 2 });
    const digest = await contentDigest(first);
    expect(await contentDigest(second)).toEqual(digest);
    const otherDigest = await contentDigest(other);
    expect(otherDigest.dose_events).not.toBe(digest.dose_events);
    expect(otherDigest.enrolments).not.toBe(digest.enrolments);
  });

  it('keeps demo companies created earlier (the demo accounts seed them first)', { timeout: 120_000 }, async () => {
    const database = await fresh();
    await database.execute(sql`insert into drug_companies (id, name) values ('northwind-pharma', 'Northwind Pharma')`);
    const result = await seedDemoDataset({ database, ...small });
    expect(result).toMatchObject({ seeded: true, inserted: { companies: demoCompanies.length - 1, products: demoProducts.length } });
  });

  it('refuses a history start that is not a date', async () => {
    const database = await fresh();
    await expect(seedDemoDataset({ database, ...small, historyStart: '2025-02-30' })).rejects.toThrow(/historyStart/);
  });
});
