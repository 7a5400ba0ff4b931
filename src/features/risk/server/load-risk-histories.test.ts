import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consentEvents, dispensings, doseEvents, messages, patients } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { dayNumberFromCivil, isoFromDayNumber } from '@/engine/adherence/day-number';
import { findLatestDoseDay, loadRiskHistories } from './load-risk-histories';

const firstDay = dayNumberFromCivil(2026, 3, 2);
const at = (day: number, hour: number) => new Date(day * 86_400_000 + hour * 3_600_000);

describe.each(testDatabaseBackends())('loadRiskHistories on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('packs dose events, messages, opt-outs and dispensings into daily counts of the window', async () => {
    const db = database.database;
    const [patient] = await db
      .insert(patients)
      .values({
        pseudonym: 'P-1',
        source: 'test',
        sourceRecordId: 'P-1',
        persona: 'busy-professional',
        ageBand: '45-54',
        conditions: ['copd', 'unknown'],
      })
      .returning({ id: patients.id });
    const id = patient!.id;
    await db.insert(doseEvents).values([
      { patientId: id, scheduledAt: at(firstDay, 8), status: 'taken', source: 'app', sourceRecordId: 'd1' },
      { patientId: id, scheduledAt: at(firstDay, 20), status: 'missed', source: 'app', sourceRecordId: 'd2' },
      { patientId: id, scheduledAt: at(firstDay + 13, 8), status: 'taken', source: 'app', sourceRecordId: 'd3' },
    ]);
    await db.insert(messages).values([
      {
        patientId: id,
        channel: 'sms',
        direction: 'outbound',
        sentAt: at(firstDay + 1, 9),
        status: 'delivered',
        source: 'test',
        sourceRecordId: 'm1',
      },
      {
        patientId: id,
        channel: 'sms',
        direction: 'inbound',
        sentAt: at(firstDay + 1, 10),
        status: 'delivered',
        source: 'test',
        sourceRecordId: 'm2',
      },
    ]);
    await db.insert(consentEvents).values({
      patientId: id,
      channel: 'sms',
      purpose: 'reminders',
      granted: false,
      source: 'sms-keyword',
      effectiveAt: at(firstDay + 2, 9),
    });
    await db
      .insert(dispensings)
      .values({ patientId: id, dispensedOn: isoFromDayNumber(firstDay - 10), daysSupply: 30, source: 'test', sourceRecordId: 'f1' });

    const endDay = await findLatestDoseDay(db);
    expect(endDay).toBe(firstDay + 14);
    const [history] = await loadRiskHistories({ database: db, endDay: endDay!, weeks: 2 });
    expect(history!.patient).toEqual({ id, persona: 'busy-professional', ageBand: '45-54', conditions: ['copd'], productCount: 0 });
    expect(history!.startDay).toBe(firstDay);
    expect([history!.scheduled[0], history!.confirmed[0], history!.scheduled[13], history!.confirmed[13]]).toEqual([2, 1, 1, 1]);
    expect([history!.outbound[1], history!.replies[1], history!.optOuts[2], history!.replies[2]]).toEqual([1, 1, 1, 0]);
    expect(history!.dispensings).toEqual([{ productId: 'unknown', day: firstDay - 10, daysSupply: 30 }]);
  });
});
