/**
 * The daily loop at scale (issue 12: 100,000 patients planned and enqueued in under 60 s on PostgreSQL).
 * Creates a fresh PostgreSQL database (BENCH_DATABASE_URL, else TEST_DATABASE_URL, names the server), loads
 * 100,000 enrolled patients in six time zones with a week of history each (a regimen, a fill, 7 dose events,
 * 2 messages), then times planMessagingDay end to end — reads, decisions, 'message-send' jobs — and a second
 * run that must find everything planned. `--patients N` changes the cohort size.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { freshPostgresDatabase } from './support/server';
import { openPostgresConnection } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { planMessagingDay } from '@/features/messaging-loop/server/plan-messaging-day';

const patientsArgument = process.argv.indexOf('--patients');
const patientCount = patientsArgument === -1 ? 100_000 : Number(process.argv[patientsArgument + 1]);
// 13:00 UTC: 05:00 in Los Angeles (past the 04:00 planning time) to 22:00 in Tokyo (quiet hours: given up).
const now = new Date('2026-11-24T13:00:00Z');
const zones = ['America/Los_Angeles', 'America/New_York', 'UTC', 'Europe/London', 'Europe/Madrid', 'Asia/Tokyo'];

const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!serverUrl) {
  process.stdout.write('daily-loop: set BENCH_DATABASE_URL (a PostgreSQL server) to run this benchmark.\n');
  process.exit(0);
}

const database = await freshPostgresDatabase(serverUrl);
const connection = openPostgresConnection(database.url);
try {
  await migrateDatabase(connection);
  const loadStarted = performance.now();
  const zoneList = `array[${zones.map((zone) => `'${zone}'`).join(',')}]`;
  await connection.execute(`
    insert into patients (pseudonym, source, source_record_id, timezone, persona, age_band, sex, preferred_channel, conditions, messaging_programme, synthetic)
    select 'B-' || n, 'bench', n::text, (${zoneList})[1 + n % ${zones.length}], 'busy-professional', '45-54',
           case when n % 2 = 0 then 'female' else 'male' end, 'whatsapp', array['hypertension'],
           case when n % 10 = 0 then 'fixed-weekly' when n % 10 = 1 then 'none' else 'fixed-daily' end, true
    from generate_series(1, ${patientCount}) as n`);
  await connection.execute(`
    insert into regimens (patient_id, medication_code, doses_per_day, dose_times, start_date, source, source_record_id)
    select id, 'C09AA05', 1, array['08:00'], '2026-01-01', 'bench', source_record_id from patients`);
  await connection.execute(`
    insert into dispensings (patient_id, medication_code, dispensed_on, days_supply, source, source_record_id)
    select id, 'C09AA05', date '2026-11-01', 30, 'bench', source_record_id from patients`);
  await connection.execute(`
    insert into dose_events (patient_id, scheduled_at, status, source, source_record_id)
    select id, timestamptz '2026-11-24 08:00Z' - d * interval '1 day', case when d % 3 = 0 then 'missed' else 'taken' end, 'app', source_record_id || '-' || d
    from patients, generate_series(1, 7) as d`);
  await connection.execute(`
    insert into messages (patient_id, channel, direction, category, framing, sent_at, status, source, source_record_id)
    select id, 'whatsapp', case when m = 1 then 'outbound' else 'inbound' end, case when m = 1 then 'reminder' end,
           case when m = 1 then 'neutral' end, timestamptz '2026-11-22 08:00Z' + m * interval '5 minutes', 'delivered', 'bench', source_record_id || '-' || m
    from patients, generate_series(1, 2) as m`);
  await connection.execute('analyze');
  const loadSeconds = (performance.now() - loadStarted) / 1000;

  const started = performance.now();
  const result = await planMessagingDay({ database: connection.database, now });
  const seconds = (performance.now() - started) / 1000;
  const againStarted = performance.now();
  const again = await planMessagingDay({ database: connection.database, now });
  const againSeconds = (performance.now() - againStarted) / 1000;
  const counts = await connection.database.execute(sql`
    select (select count(*) from policy_decisions)::int as decisions,
           (select count(*) from jobs where kind = 'message-send')::int as jobs,
           (select count(*) from policy_decisions where status = 'not-sent')::int as given_up`);
  const stored = (counts as unknown as { rows: { decisions: number; jobs: number; given_up: number }[] }).rows[0]!;
  process.stdout.write(
    [
      `patients enrolled: ${patientCount.toLocaleString('en')} (loaded with a week of history in ${loadSeconds.toFixed(1)} s)`,
      `planMessagingDay: ${seconds.toFixed(2)} s — ${result.decisions.toLocaleString('en')} decisions, ${result.messagesPlanned.toLocaleString('en')} messages planned, ${result.jobsEnqueued.toLocaleString('en')} send jobs (${Math.round(result.patients / seconds).toLocaleString('en')} patients/s)`,
      `stored: ${stored.decisions.toLocaleString('en')} decisions, ${stored.jobs.toLocaleString('en')} message-send jobs, ${stored.given_up.toLocaleString('en')} given up (quiet hours in Tokyo)`,
      `second run: ${againSeconds.toFixed(2)} s — ${again.decisions} new decisions, ${again.jobsEnqueued} new jobs, ${again.alreadyPlanned.toLocaleString('en')} already planned`,
      `target (100,000 in under 60 s): ${patientCount >= 100_000 && seconds < 60 && stored.decisions === patientCount ? 'met' : 'not shown by this run'}`,
      '',
    ].join('\n'),
  );
} finally {
  await connection.close();
  await database.drop();
}
