import { eq } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { isoFromDayNumber } from '@/engine/adherence/day-number';
import { analyseTrialOutcomes } from '@/engine/statistics/trial';
import { getTrialResults, parseTrialOutcomesCsv } from '@/features/trials';
import { insertTrial, insertTrialFixture, participants, viewer } from '@/features/trials/server/test-support/trial-fixtures';
import { serveRoutesFrom } from '@/lib/server/route-testing';
import { GET as getAnalysisDataset } from './route';

describe.each(testDatabaseBackends())('the analysis-dataset export on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
    await insertTrialFixture(database.database);
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('exports the CSV to clinicians, officials and admins once complete; 409 before, 403 to others, audited; 400 naming a bad trialId', async () => {
    const server = await serveRoutesFrom(database);
    try {
      // A second trial that is still in its first weeks today.
      const recent = isoFromDayNumber(Math.floor(Date.now() / 86_400_000) - 3);
      await insertTrial(database.database, { id: 'recent', enrolledOn: recent, people: participants.slice(2) });
      const download = async (trialId: string, cookie: string | null) =>
        getAnalysisDataset(
          new NextRequest(`http://localhost:3000/api/trials/${trialId}/analysis-dataset`, {
            headers: { host: 'localhost:3000', ...(cookie === null ? {} : { cookie }) },
          }),
          { params: Promise.resolve({ trialId }) },
        );

      expect((await download('t1', null)).status).toBe(401);
      // A bad id is refused naming trialId, before it reaches the use case (no audit row, no lookup); signed out, 401 still.
      expect((await download('T1;drop', null)).status).toBe(401);
      const admin = await server.signIn('admin');
      for (const badId of ['T1', '../t1', 't1 ', 'x'.repeat(61), '%00']) {
        const refused = await download(badId, admin);
        expect(refused.status).toBe(400);
        const body = (await refused.json()) as { error: { code: string; message: string; fieldErrors?: Record<string, string> } };
        expect(body.error).toMatchObject({ code: 'validation', fieldErrors: { trialId: expect.stringMatching(/^trialId must be/) } });
        expect(body.error.message).toMatch(/^The trial is not valid: trialId: /);
      }
      for (const role of ['patient', 'drug-manufacturer'] as const)
        expect((await download('t1', await server.signIn(role))).status).toBe(403);
      const running = await download('recent', await server.signIn('admin'));
      expect(running.status).toBe(409);
      expect(((await running.json()) as { error: { message: string } }).error.message).toContain('concealed arms');

      for (const role of ['clinician', 'government-official'] as const)
        expect((await download('t1', await server.signIn(role))).status).toBe(200);
      const response = await download('t1', await server.signIn('admin'));
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const text = await response.text();
      const [header, ...lines] = text.trimEnd().split('\r\n');
      expect(header).toBe(
        `patient_id,arm,stratum,baseline,outcome,adherent,refill_pdc,days_to_first_gap,messages,replies,${Array.from({ length: 12 }, (_, index) => `week_${index + 1}`).join(',')},baseline_imputed`,
      );
      expect(lines).toHaveLength(4);
      // A pseudonym a spreadsheet would run as a formula is neutralised.
      expect(lines.some((line) => line.startsWith("'+A-001,intervention,forgetful,"))).toBe(true);

      // The file as downloaded, read by the command line's reader, gives the page's analysis.
      const parsed = parseTrialOutcomesCsv(text);
      if (!('rows' in parsed)) throw new Error(JSON.stringify(parsed.problems));
      const results = await getTrialResults({ database: database.database, trialId: 't1', viewer: viewer('admin'), now: new Date() });
      if (results.state !== 'unblinded') throw new Error('expected unblinded results');
      expect(analyseTrialOutcomes(parsed.rows)).toEqual(results.analysis);

      const audit = await database.database
        .select({ outcome: auditLog.outcome })
        .from(auditLog)
        .where(eq(auditLog.action, 'trial.analysis-dataset.export'));
      expect(audit.map((row) => row.outcome).sort()).toEqual(['denied', 'denied', 'failure', 'success', 'success', 'success']);
    } finally {
      server.restore();
    }
  });
});
