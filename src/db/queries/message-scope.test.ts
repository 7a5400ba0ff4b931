import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import {
  authUsers,
  companyMemberships,
  dispensings,
  drugCompanies,
  messages,
  organisationMemberships,
  organisations,
  patients,
  products,
  regimens,
} from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { dayNumberFromIso } from '@/engine/adherence/day-number';
import { type CohortScope, findCohortScope } from './cohort-scope';
import { findMessageFilterOptions, type MessageFilters, messageConditions, periodInstants } from './message-scope';

// January 2026: [1 Jan, 1 Feb) as UTC day numbers.
const period = { start: dayNumberFromIso('2026-01-01'), end: dayNumberFromIso('2026-02-01') };

describe('periodInstants', () => {
  it('gives the period as [first midnight, midnight after the last day) in UTC', () => {
    expect(periodInstants(period)).toEqual({ from: new Date('2026-01-01T00:00:00Z'), to: new Date('2026-02-01T00:00:00Z') });
  });
});

describe.each(testDatabaseBackends())('message scope on $name', (backend) => {
  let database: TestDatabase;
  let db: Database;

  /** Pseudonyms of the patients whose messages match, one entry per message, in time order. */
  async function matching(scope: CohortScope, filters: Partial<MessageFilters> = {}): Promise<string[] | null> {
    const where = messageConditions(db, scope, { period, ...filters });
    if (where === null) return null;
    const rows = await db
      .select({ pseudonym: patients.pseudonym })
      .from(messages)
      .innerJoin(patients, eq(patients.id, messages.patientId))
      .where(where)
      .orderBy(asc(messages.sentAt), asc(patients.pseudonym));
    return rows.map((row) => row.pseudonym);
  }

  beforeEach(async () => {
    database = await backend.create();
    db = database.database;
    await db
      .insert(authUsers)
      .values(['clinician-1', 'clinician-2', 'manufacturer-1', 'manufacturer-2'].map((id) => ({ id, name: id, email: `${id}@x.test` })));
    await db.insert(organisations).values([
      { id: 'org-a', name: 'Riverside' },
      { id: 'org-b', name: 'Hilltop' },
    ]);
    await db.insert(organisationMemberships).values({ userId: 'clinician-1', organisationId: 'org-a' });
    await db.insert(drugCompanies).values([
      { id: 'company-a', name: 'Company A' },
      { id: 'company-b', name: 'Company B' },
    ]);
    await db.insert(products).values([
      { id: 'statin', companyId: 'company-a', name: 'Atorva 20', genericName: 'atorvastatin' },
      { id: 'inhaler', companyId: 'company-b', name: 'Breathe 100', genericName: 'budesonide' },
    ]);
    await db.insert(companyMemberships).values({ userId: 'manufacturer-1', companyId: 'company-a' });
    // P1 (org A, steady): the statin by regimen only. P2 (org A, busy): the statin dispensed. P3 (org B, busy): the inhaler dispensed.
    const ids: Record<string, string> = {};
    for (const [pseudonym, organisationId, persona] of [
      ['P1', 'org-a', 'steady'],
      ['P2', 'org-a', 'busy'],
      ['P3', 'org-b', 'busy'],
    ] as const) {
      const [row] = await db
        .insert(patients)
        .values({ pseudonym, source: 'test', sourceRecordId: pseudonym, organisationId, persona })
        .returning({ id: patients.id });
      ids[pseudonym] = row!.id;
    }
    await db
      .insert(regimens)
      .values({ patientId: ids.P1!, productId: 'statin', dosesPerDay: 1, startDate: '2025-06-01', source: 'test', sourceRecordId: 'r1' });
    await db.insert(dispensings).values([
      { patientId: ids.P2!, productId: 'statin', dispensedOn: '2025-12-01', daysSupply: 30, source: 'test', sourceRecordId: 'd2' },
      { patientId: ids.P3!, productId: 'inhaler', dispensedOn: '2025-12-01', daysSupply: 30, source: 'test', sourceRecordId: 'd3' },
    ]);
    let sequence = 0;
    const message = (pseudonym: string, channel: 'sms' | 'whatsapp', sentAt: string) => ({
      patientId: ids[pseudonym]!,
      channel,
      direction: 'outbound' as const,
      sentAt: new Date(sentAt),
      status: 'delivered',
      source: 'test',
      sourceRecordId: `m${(sequence += 1)}`,
    });
    await db.insert(messages).values([
      // The period's first instant counts; one instant before it and its end do not.
      message('P1', 'sms', '2025-12-31T23:59:59.999Z'),
      message('P1', 'sms', '2026-01-01T00:00:00Z'),
      message('P2', 'whatsapp', '2026-01-10T12:00:00Z'),
      message('P3', 'sms', '2026-01-20T12:00:00Z'),
      message('P3', 'whatsapp', '2026-01-31T23:59:59.999Z'),
      message('P2', 'sms', '2026-02-01T00:00:00Z'),
    ]);
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('keeps the period as [start, end) in UTC and every patient for an all-patients scope', async () => {
    expect(await matching({ kind: 'all' })).toEqual(['P1', 'P2', 'P3', 'P3']);
  });

  it('narrows a clinician to their organisations and gives no query without one', async () => {
    const scope = await findCohortScope({ database: db, actor: { id: 'clinician-1', role: 'clinician' } });
    expect(await matching(scope)).toEqual(['P1', 'P2']);
    const lone = await findCohortScope({ database: db, actor: { id: 'clinician-2', role: 'clinician' } });
    expect(await matching(lone)).toBeNull();
  });

  it('narrows a manufacturer to the patients dispensed their products (a regimen alone is not enough)', async () => {
    const scope = await findCohortScope({ database: db, actor: { id: 'manufacturer-1', role: 'drug-manufacturer' } });
    expect(await matching(scope)).toEqual(['P2']);
    // Another company's product is outside the scope: no query.
    expect(await matching(scope, { productId: 'inhaler' })).toBeNull();
    const companyless = await findCohortScope({ database: db, actor: { id: 'manufacturer-2', role: 'drug-manufacturer' } });
    expect(await matching(companyless)).toBeNull();
  });

  it('filters by channel, persona and product (by regimen or by dispensing)', async () => {
    const all: CohortScope = { kind: 'all' };
    expect(await matching(all, { channel: 'whatsapp' })).toEqual(['P2', 'P3']);
    expect(await matching(all, { channel: 'email' })).toEqual([]);
    expect(await matching(all, { persona: 'busy' })).toEqual(['P2', 'P3', 'P3']);
    expect(await matching(all, { productId: 'statin' })).toEqual(['P1', 'P2']);
    expect(await matching(all, { productId: 'inhaler', channel: 'sms' })).toEqual(['P3']);
    expect(await matching(all, { persona: 'steady', productId: 'inhaler' })).toEqual([]);
  });

  it('offers the personas of the scope and the products it may read', async () => {
    expect(await findMessageFilterOptions({ database: db, scope: { kind: 'all' } })).toEqual({
      personas: ['busy', 'steady'],
      products: [
        { id: 'statin', name: 'Atorva 20' },
        { id: 'inhaler', name: 'Breathe 100' },
      ],
    });
    const clinician = await findCohortScope({ database: db, actor: { id: 'clinician-1', role: 'clinician' } });
    expect((await findMessageFilterOptions({ database: db, scope: clinician })).personas).toEqual(['busy', 'steady']);
    const manufacturer = await findCohortScope({ database: db, actor: { id: 'manufacturer-1', role: 'drug-manufacturer' } });
    expect(await findMessageFilterOptions({ database: db, scope: manufacturer })).toEqual({
      personas: ['busy'],
      products: [{ id: 'statin', name: 'Atorva 20' }],
    });
    expect(await findMessageFilterOptions({ database: db, scope: { kind: 'no-company' } })).toEqual({ personas: [], products: [] });
  });
});
