/**
 * Writes the simulated cohort's bulk records (dispensings, dose events, messages) in multi-row statements:
 * each statement inserts up to `batchSize` rows passed as one array per column and spread by `unnest`, so a
 * statement has a handful of parameters however many rows it carries (PostgreSQL allows 65,535), and the
 * database parses it once. `on conflict do nothing` on (source, source_record_id): writing the same
 * records again changes nothing.
 *
 * Row ids are derived from the record's identity (md5 of source, table and source record id), so the same
 * seed always yields the same ids and a dose event can name its patient without reading the patient back.
 */
import 'server-only';
import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '@/db/client';
import { dispensings, doseEvents, messages } from '@/db/schema';
import { demoProducts } from '@/engine/simulation/demo-catalogue';
import { messageCategories, messageChannels, messageFramings } from '@/engine/policy/message-arms';
import { type DemoCohort, messageDirections, messageStatuses, storedDoseStatuses } from './simulate-demo-cohort';

export const demoSource = 'simulation';

/** What `insert`, `execute` and `select` need: the database or a transaction on it. */
export type DatabaseExecutor = Pick<Database, 'execute' | 'insert' | 'select'>;

/** The id of a simulated record, as JavaScript and as SQL compute it (both md5 of the same text). */
export function syntheticUuid(table: string, recordId: string): string {
  const hex = createHash('md5').update(`${demoSource}/${table}/${recordId}`, 'utf8').digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function syntheticUuidSql(table: string, recordId: SQL): SQL {
  return sql`md5(${`${demoSource}/${table}/`}::text || ${recordId})::uuid`;
}

function columnList(...columns: AnyPgColumn[]): SQL {
  return sql.join(
    columns.map((column) => sql.identifier(column.name)),
    sql`, `,
  );
}

/** Rows a statement inserted: PGlite reports `affectedRows`, node-postgres `rowCount`. */
function affectedRows(result: unknown): number {
  const { affectedRows: pglite, rowCount: postgres } = (result ?? {}) as { affectedRows?: number; rowCount?: number | null };
  return pglite ?? postgres ?? 0;
}

async function insertInBatches(options: {
  database: DatabaseExecutor;
  rowCount: number;
  batchSize: number;
  statement: (start: number, end: number) => SQL;
}): Promise<number> {
  let inserted = 0;
  for (let start = 0; start < options.rowCount; start += options.batchSize) {
    const end = Math.min(options.rowCount, start + options.batchSize);
    inserted += affectedRows(await options.database.execute(options.statement(start, end)));
  }
  return inserted;
}

function isoInstant(epochMinute: number): string {
  return new Date(epochMinute * 60_000).toISOString();
}

export async function writeDispensings(options: { database: DatabaseExecutor; cohort: DemoCohort; batchSize: number }): Promise<number> {
  const { cohort } = options;
  const records = cohort.dispensings;
  return insertInBatches({
    database: options.database,
    rowCount: records.patient.length,
    batchSize: options.batchSize,
    statement: (start, end) => {
      const recordIds: string[] = [];
      const patientIds: string[] = [];
      const productIds: string[] = [];
      const dosesPerDay: number[] = [];
      for (let row = start; row < end; row += 1) {
        const patientId = cohort.patients[records.patient[row]!]!.id;
        const product = demoProducts[records.product[row]!]!;
        recordIds.push(`${patientId}-f${records.sequence[row]}`);
        patientIds.push(patientId);
        productIds.push(product.id);
        dosesPerDay.push(product.doseOccasions.length);
      }
      return sql`insert into ${dispensings} (${columnList(dispensings.id, dispensings.patientId, dispensings.productId, dispensings.dispensedOn, dispensings.daysSupply, dispensings.quantity, dispensings.dosesPerDay, dispensings.source, dispensings.sourceRecordId)})
        select ${syntheticUuidSql('dispensings', sql`t.record_id`)}, ${syntheticUuidSql('patients', sql`t.patient_id`)}, t.product_id,
          date '1970-01-01' + t.day, t.days_supply, t.quantity, t.doses_per_day, ${demoSource}, t.record_id
        from unnest(${sql.param(recordIds)}::text[], ${sql.param(patientIds)}::text[], ${sql.param(productIds)}::text[], ${sql.param(records.day.slice(start, end))}::int[],
          ${sql.param(records.daysSupply.slice(start, end))}::int[], ${sql.param(records.quantity.slice(start, end))}::float8[], ${sql.param(dosesPerDay)}::float8[])
          as t(record_id, patient_id, product_id, day, days_supply, quantity, doses_per_day)
        on conflict do nothing`;
    },
  });
}

export async function writeDoseEvents(options: { database: DatabaseExecutor; cohort: DemoCohort; batchSize: number }): Promise<number> {
  const { cohort } = options;
  const records = cohort.doseEvents;
  return insertInBatches({
    database: options.database,
    rowCount: records.patient.length,
    batchSize: options.batchSize,
    statement: (start, end) => {
      const recordIds: string[] = [];
      const patientIds: string[] = [];
      const productIds: string[] = [];
      const confirmedAt: (number | null)[] = [];
      const statuses: string[] = [];
      for (let row = start; row < end; row += 1) {
        const patientId = cohort.patients[records.patient[row]!]!.id;
        recordIds.push(`${patientId}-d${records.sequence[row]}`);
        patientIds.push(patientId);
        productIds.push(demoProducts[records.product[row]!]!.id);
        const confirmed = records.confirmedAt[row]!;
        confirmedAt.push(confirmed < 0 ? null : confirmed);
        statuses.push(storedDoseStatuses[records.status[row]!]!);
      }
      return sql`insert into ${doseEvents} (${columnList(doseEvents.id, doseEvents.patientId, doseEvents.productId, doseEvents.scheduledAt, doseEvents.confirmedAt, doseEvents.status, doseEvents.source, doseEvents.sourceRecordId)})
        select ${syntheticUuidSql('dose_events', sql`t.record_id`)}, ${syntheticUuidSql('patients', sql`t.patient_id`)}, t.product_id,
          to_timestamp(t.scheduled_at * 60), to_timestamp(t.confirmed_at * 60), t.status, ${demoSource}, t.record_id
        from unnest(${sql.param(recordIds)}::text[], ${sql.param(patientIds)}::text[], ${sql.param(productIds)}::text[],
          ${sql.param(records.scheduledAt.slice(start, end))}::float8[], ${sql.param(confirmedAt)}::float8[], ${sql.param(statuses)}::text[])
          as t(record_id, patient_id, product_id, scheduled_at, confirmed_at, status)
        on conflict do nothing`;
    },
  });
}

export async function writeMessages(options: { database: DatabaseExecutor; cohort: DemoCohort; batchSize: number }): Promise<number> {
  const { cohort } = options;
  const records = cohort.messages;
  const { changes } = cohort;
  return insertInBatches({
    database: options.database,
    rowCount: records.id.length,
    batchSize: options.batchSize,
    statement: (start, end) => {
      const patientIds: string[] = [];
      const channels: string[] = [];
      const directions: string[] = [];
      const categories: string[] = [];
      const framings: (string | null)[] = [];
      const sentAt: number[] = [];
      const statuses: string[] = [];
      const histories: string[] = [];
      for (let row = start; row < end; row += 1) {
        patientIds.push(cohort.patients[records.patient[row]!]!.id);
        channels.push(messageChannels[records.channel[row]!]!);
        directions.push(messageDirections[records.direction[row]!]!);
        categories.push(messageCategories[records.category[row]!]!);
        const framing = records.framing[row]!;
        framings.push(framing < 0 ? null : messageFramings[framing]!);
        // The message's time is its first status (sent, or for a reply delivered); its status the latest.
        const first = records.firstChange[row]!;
        const last = first + records.changeCount[row]! - 1;
        sentAt.push(changes.at[first]!);
        statuses.push(messageStatuses[changes.status[last]!]!);
        const history: { status: string; at: string }[] = [];
        for (let change = first; change <= last; change += 1)
          history.push({ status: messageStatuses[changes.status[change]!]!, at: isoInstant(changes.at[change]!) });
        histories.push(JSON.stringify(history));
      }
      return sql`insert into ${messages} (${columnList(messages.id, messages.patientId, messages.channel, messages.direction, messages.category, messages.framing, messages.templateId, messages.sentAt, messages.status, messages.statusHistory, messages.replyText, messages.source, messages.sourceRecordId)})
        select ${syntheticUuidSql('messages', sql`t.record_id`)}, ${syntheticUuidSql('patients', sql`t.patient_id`)}, t.channel, t.direction, t.category, t.framing,
          t.template_id, to_timestamp(t.sent_at * 60), t.status, t.status_history::jsonb, t.reply_text, ${demoSource}, t.record_id
        from unnest(${sql.param(records.id.slice(start, end))}::text[], ${sql.param(patientIds)}::text[], ${sql.param(channels)}::text[], ${sql.param(directions)}::text[],
          ${sql.param(categories)}::text[], ${sql.param(framings)}::text[], ${sql.param(records.templateId.slice(start, end))}::text[], ${sql.param(sentAt)}::float8[],
          ${sql.param(statuses)}::text[], ${sql.param(histories)}::text[], ${sql.param(records.replyText.slice(start, end))}::text[])
          as t(record_id, patient_id, channel, direction, category, framing, template_id, sent_at, status, status_history, reply_text)
        on conflict do nothing`;
    },
  });
}
