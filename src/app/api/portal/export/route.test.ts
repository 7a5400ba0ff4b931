import { NextRequest } from 'next/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { serveRoutesFrom } from '@/lib/server/route-testing';
import { GET as exportTable } from './route';

describe.each(testDatabaseBackends())('the portal CSV export on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('answers officials with a CSV; refuses visitors, patients and clinicians, bad tables and bad filters', async () => {
    const server = await serveRoutesFrom(database);
    try {
      const download = (query: string, cookie: string | null) =>
        exportTable(
          new NextRequest(`http://localhost:3000/api/portal/export${query}`, {
            headers: { host: 'localhost:3000', ...(cookie === null ? {} : { cookie }) },
          }),
        );
      expect((await download('?table=monthly', null)).status).toBe(401);
      for (const role of ['patient', 'clinician'] as const)
        expect((await download('?table=monthly', await server.signIn(role))).status).toBe(403);
      const official = await server.signIn('government-official');
      expect((await download('?table=../etc', official)).status).toBe(400);
      expect((await download('?table=nope', official)).status).toBe(400);
      expect((await download('?table=monthly&period=yesterday', official)).status).toBe(400);
      const response = await download('?table=by-region&period=last-3-months', official);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(response.headers.get('content-disposition')).toMatch(
        /^attachment; filename="portal-by-region-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const lines = (await response.text()).trimEnd().split('\r\n');
      expect(lines[0]).toContain('By region');
      expect(lines[2]).toBe('Region,Patients,Share with PDC ≥ 0.8');
      // The demand forecast's tables: an empty database has too few patients, so the file says so and shows no figure.
      for (const table of ['demand-forecast', 'demand-backtest']) {
        for (const role of ['patient', 'clinician'] as const)
          expect((await download(`?table=${table}`, await server.signIn(role))).status).toBe(403);
        const forecast = await download(`?table=${table}`, official);
        expect(forecast.status).toBe(200);
        expect(forecast.headers.get('content-disposition')).toMatch(
          new RegExp(`^attachment; filename="portal-${table}-as-of-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
        );
        expect((await forecast.text()).trimEnd().split('\r\n').at(-1)).toBe(
          'Not shown: fewer than 11 patients (a forecast from so few could reveal them).',
        );
      }
    } finally {
      server.restore();
    }
    // Sign-ins hash passwords: slow on a busy machine.
  }, 120_000);
});
