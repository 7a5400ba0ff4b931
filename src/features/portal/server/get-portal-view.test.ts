import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { auditLog, authUsers, companyMemberships, doseEvents, drugCompanies, messages, products } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { dayNumberFromCivil } from '@/engine/adherence';
import { AppError } from '@/lib/errors';
import { noPortalFilters } from '../portal-tables';
import { exportPortalTable } from './export-portal-table';
import { getPortalView, type PortalView } from './get-portal-view';
import { testSessionUser } from '@/lib/server/session-testing';
import { addPortalTestPatient } from './test-support/portal-test-catalogue';

const now = new Date('2026-02-28T12:00:00Z');
const today = dayNumberFromCivil(2026, 2, 28);
const request = { requestId: 'request-1', clientAddress: '127.0.0.1' };

const user = testSessionUser;
const manufacturer = user('manufacturer-1', 'drug-manufacturer');
const government = user('government-1', 'government-official');

function ok(view: PortalView) {
  if (view.status !== 'ok') throw new Error(`expected a view, got ${view.status}`);
  return view;
}

const everyMonth = Array.from({ length: 15 }, (_, index) => today - 420 + index * 30);

describe.each(testDatabaseBackends())('manufacturing portal on $name', (backend) => {
  let database: TestDatabase;
  let db: Database;

  beforeEach(async () => {
    database = await backend.create();
    db = database.database;
    await db.insert(authUsers).values([
      { id: 'manufacturer-1', name: 'manufacturer-1', email: 'manufacturer-1@x.test' },
      { id: 'government-1', name: 'government-1', email: 'government-1@x.test' },
      { id: 'patient-1', name: 'patient-1', email: 'patient-1@x.test' },
      { id: 'clinician-1', name: 'clinician-1', email: 'clinician-1@x.test' },
    ]);
    await db.insert(drugCompanies).values([
      { id: 'company-a', name: 'Company A' },
      { id: 'company-b', name: 'Company B' },
    ]);
    await db.insert(companyMemberships).values({ userId: 'manufacturer-1', companyId: 'company-a' });
    await db.insert(products).values([
      { id: 'statin-a', companyId: 'company-a', name: 'Atorva A', genericName: 'atorvastatin', atcCode: 'C10AA05' },
      { id: 'sartan-b', companyId: 'company-b', name: 'Losar B', genericName: 'losartan', atcCode: 'C09CA01' },
    ]);
    const first = await addPortalTestPatient(db, 'statin-a', 'north', everyMonth);
    for (let index = 1; index < 14; index += 1) await addPortalTestPatient(db, 'statin-a', 'north', everyMonth);
    for (let index = 0; index < 12; index += 1) await addPortalTestPatient(db, 'sartan-b', 'south', everyMonth);
    // Twelve missed doses at 09:00 London time on Monday 16 Feb 2026 and replies giving a reason.
    await db.insert(doseEvents).values(
      Array.from({ length: 12 }, (_, index) => ({
        patientId: first,
        productId: 'statin-a',
        scheduledAt: new Date(`2026-02-16T09:${String(index).padStart(2, '0')}:00Z`),
        status: 'missed' as const,
        source: 'test',
        sourceRecordId: `dose-${index}`,
      })),
    );
    await db.insert(messages).values(
      Array.from({ length: 12 }, (_, index) => ({
        patientId: first,
        channel: 'whatsapp' as const,
        direction: 'inbound' as const,
        sentAt: new Date(`2026-02-16T10:${String(index).padStart(2, '0')}:00Z`),
        status: 'received',
        replyText: 'No, I forgot',
        source: 'test',
        sourceRecordId: `reply-${index}`,
      })),
    );
  });

  afterEach(async () => {
    await database.dispose();
  });

  it('shows a manufacturer only their companies’ products and records the view', async () => {
    const view = ok(await getPortalView({ database: db, actor: manufacturer, filters: noPortalFilters, request, now }));
    expect(view.audience).toBe('manufacturer');
    expect(view.options.products.map((product) => product.id)).toEqual(['statin-a']);
    expect(view.companies).toEqual(['Company A']);
    const byProduct = view.figures.tables.find((table) => table.id === 'by-product')!;
    expect(byProduct.rows.map((row) => row.key)).toEqual(['statin-a']);
    const cohort = view.figures.tables.find((table) => table.id === 'pdc-distribution')!.rows.find((row) => row.key === 'all')!;
    expect(cohort.values[0]).toEqual({ kind: 'count', value: 14 });
    // The 12 missed doses at 09:00 London (GMT in February) on a Monday; the reasons from the replies.
    expect(view.figures.worstWindow).toMatchObject({ weekday: 0, hour: 9, missed: 12, scheduled: 12, share: 1 });
    const reasons = view.figures.tables.find((table) => table.id === 'missed-reasons')!;
    expect(reasons.rows.find((row) => row.key === 'forgot')!.values[0]).toEqual({ kind: 'count', value: 12 });

    // Another company's product in the address is ignored, never shown.
    const other = ok(
      await getPortalView({ database: db, actor: manufacturer, filters: { ...noPortalFilters, productId: 'sartan-b' }, request, now }),
    );
    expect(other.filterProblem).toContain('product');
    expect(other.productIds).toEqual(['statin-a']);

    const audits = await db
      .select({ action: auditLog.action, outcome: auditLog.outcome, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.actorUserId, 'manufacturer-1'));
    expect(audits).toHaveLength(2);
    expect(audits[0]).toMatchObject({
      action: 'portal.view',
      outcome: 'success',
      details: { view: 'manufacturer', productId: null, region: null },
    });
  });

  it('shows a government official every company, with counts of 1–10 hidden', async () => {
    const view = ok(await getPortalView({ database: db, actor: government, filters: noPortalFilters, request, now }));
    expect(view.audience).toBe('government');
    expect(view.options.companies.map((company) => company.id)).toEqual(['company-a', 'company-b']);
    const byCompany = view.figures.tables.find((table) => table.id === 'by-company')!;
    expect(byCompany.rows.map((row) => [row.key, row.values[0]])).toEqual([
      ['company-a', { kind: 'count', value: 14 }],
      ['company-b', { kind: 'count', value: 12 }],
    ]);
    for (const table of view.figures.tables)
      for (const row of table.rows)
        for (const value of row.values) if (value.kind === 'count') expect(value.value === 0 || value.value >= 11).toBe(true);
    const north = ok(
      await getPortalView({
        database: db,
        actor: government,
        filters: { ...noPortalFilters, region: 'north', productId: 'sartan-b' },
        request,
        now,
      }),
    );
    expect(north.figures.tables.find((table) => table.id === 'pdc-distribution')!.rows.find((row) => row.key === 'all')!.values[0]).toEqual(
      {
        kind: 'count',
        value: 0,
      },
    );
  });

  it('refuses patients and clinicians, and records the refusal', async () => {
    for (const actor of [user('patient-1', 'patient'), user('clinician-1', 'clinician')]) {
      await expect(getPortalView({ database: db, actor, filters: noPortalFilters, request, now })).rejects.toMatchObject({
        code: 'forbidden',
      });
      await expect(
        exportPortalTable({ database: db, actor, table: 'monthly', filters: noPortalFilters, request, now }),
      ).rejects.toBeInstanceOf(AppError);
    }
    const denied = await db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.outcome, 'denied'));
    expect(denied).toHaveLength(4);
  });

  it('exports a table as the page shows it, and audits the download', async () => {
    const view = ok(await getPortalView({ database: db, actor: manufacturer, filters: noPortalFilters, request, now }));
    const { csv, filename } = await exportPortalTable({
      database: db,
      actor: manufacturer,
      table: 'by-region',
      filters: noPortalFilters,
      request,
      now,
    });
    expect(filename).toMatch(/^portal-by-region-/);
    const lines = csv.trim().split('\r\n');
    const table = view.figures.tables.find((candidate) => candidate.id === 'by-region')!;
    expect(lines[2]).toBe(table.columns.join(','));
    expect(lines.slice(3)).toEqual(
      table.rows.map((row) =>
        [
          row.label,
          ...row.values.map((value) =>
            value.kind === 'count'
              ? value.value
              : value.kind === 'share'
                ? Number(value.value.toFixed(4))
                : 'label' in value
                  ? value.label
                  : value.value,
          ),
        ].join(','),
      ),
    );
    await expect(
      exportPortalTable({ database: db, actor: manufacturer, table: 'nope', filters: noPortalFilters, request, now }),
    ).rejects.toMatchObject({ code: 'validation' });
    const exports = await db.select({ details: auditLog.details }).from(auditLog).where(eq(auditLog.action, 'portal.export-csv'));
    expect(exports[0]?.details).toMatchObject({ table: 'by-region', view: 'manufacturer' });
  });
});
