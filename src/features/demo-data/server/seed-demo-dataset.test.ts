import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { demoCompanies, demoProducts } from '@/engine/simulation/demo-catalogue';
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
      (select count(*)::int from trial_enrolments) as enrolments`,
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
      (select md5(string_agg(t::text, '|' order by t.patient_id)) from (select patient_id, arm, stratum, block, enrolled_on from trial_enrolments) t) as enrolments`,
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

  it('loads the catalogue, the cohort with its history and the randomised trial cohort', { timeout: 120_000 }, async () => {
    const database = await fresh();
    const result = await seedDemoDataset({ database, ...small });
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
      trialEnrolments: counts.enrolments,
    });
    // A year of history: every patient has a regimen and dispensings; dose events and messages are plentiful.
    expect(counts.regimens).toBeGreaterThanOrEqual(small.patientCount);
    expect(counts.dispensings).toBeGreaterThan(small.patientCount * 4);
    expect(counts.dose_events).toBeGreaterThan(small.patientCount * 100);
    expect(counts.messages).toBeGreaterThan(small.patientCount * 20);
    expect(result.programmes['fixed-daily'] + result.programmes['fixed-weekly'] + result.programmes.none).toBe(small.patientCount);

    const [span] = await rows<{ first: string; last: string; unknown: number; synthetic: number }>(
      database,
      sql`select min(scheduled_at)::date::text as first, max(scheduled_at)::date::text as last,
        count(*) filter (where status = 'unknown')::int as unknown,
        (select count(*)::int from patients where not synthetic) as synthetic from dose_events`,
    );
    expect(span).toEqual({ first: '2025-01-01', last: '2025-12-31', unknown: 0, synthetic: 0 });

    const [trial] = await rows<{ id: string; name: string; weeks: number; start_date: string; protocol: Record<string, unknown> }>(
      database,
      sql`select id, name, weeks, start_date::text, protocol from trials`,
    );
    expect(trial).toMatchObject({ id: 'cohort-a', name: trialCohortA.name, weeks: 12, start_date: '2026-01-01' });
    expect(trial?.protocol).toMatchObject({
      allocation: { ratio: '1:1', method: 'permuted blocks', blockSize: 4, stratifiedBy: 'persona' },
      primaryEndpoint: { measure: 'PDC', weeks: 12 },
    });
    expect(counts.enrolments).toBe(small.trialSize);
    expect(result.arms.control + result.arms.intervention).toBe(small.trialSize);
  });

  it('allocates 1:1 within every stratum, in complete permuted blocks of 4', { timeout: 120_000 }, async () => {
    const database = await fresh();
    await seedDemoDataset({ database, ...small });
    const strata = await rows<{ stratum: string; control: number; intervention: number; persona_matches: boolean }>(
      database,
      sql`select e.stratum, count(*) filter (where e.arm = 'control')::int as control, count(*) filter (where e.arm = 'intervention')::int as intervention,
        bool_and(p.persona = e.stratum) as persona_matches
        from trial_enrolments e join patients p on p.id = e.patient_id group by e.stratum`,
    );
    expect(strata.length).toBeGreaterThan(1);
    for (const stratum of strata) {
      expect(stratum.persona_matches).toBe(true);
      expect(Math.abs(stratum.control - stratum.intervention)).toBeLessThanOrEqual(2);
    }
    // Every block but the last of its stratum is full and balanced: two places per arm.
    const blocks = await rows<{ stratum: string; block: number; control: number; size: number; last: number }>(
      database,
      sql`select stratum, block, count(*) filter (where arm = 'control')::int as control, count(*)::int as size,
        max(block) over (partition by stratum)::int as last from trial_enrolments group by stratum, block`,
    );
    for (const block of blocks.filter((candidate) => candidate.block < candidate.last))
      expect(block).toMatchObject({ size: 4, control: 2 });
  });

  it('loads only into a database without synthetic patients, and loading again changes nothing', { timeout: 180_000 }, async () => {
    const database = await fresh();
    await seedDemoDataset({ database, ...small });
    const before = { counts: await tableCounts(database), digest: await contentDigest(database) };

    expect(await seedDemoDataset({ database, ...small })).toEqual({ seeded: false, syntheticPatients: small.patientCount });
    // Forced past the check, every insert meets its own rows and skips them.
    const forced = await seedDemoDataset({ database, ...small, force: true });
    expect(forced).toMatchObject({
      seeded: true,
      inserted: { companies: 0, products: 0, patients: 0, regimens: 0, dispensings: 0, doseEvents: 0, messages: 0, trialEnrolments: 0 },
    });
    expect(await tableCounts(database)).toEqual(before.counts);
    expect(await contentDigest(database)).toEqual(before.digest);
  });

  it('gives the same rows, ids and allocations for the same seed, and other ones for another seed', { timeout: 180_000 }, async () => {
    const [first, second, other] = [await fresh(), await fresh(), await fresh()];
    await seedDemoDataset({ database: first, ...small });
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
