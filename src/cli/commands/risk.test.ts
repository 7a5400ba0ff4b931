import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { riskModels } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { captureIo } from './command-io';
import { run } from './risk';

describe('risk command', () => {
  it('evaluate --simulate --json prints exactly the three models, test patients and test weeks, the same for the same seed', async () => {
    const io = captureIo();
    expect(await run(['evaluate', '--simulate', '150', '--seed', '4', '--weeks', '14', '--json'], io)).toBe(0);
    const printed = JSON.parse(io.out()) as { models: Record<string, unknown>[]; testPatients: number; testWeeks: number };
    expect(Object.keys(printed)).toEqual(['models', 'testPatients', 'testWeeks']);
    expect(printed.models.map((model) => model.name)).toEqual(['network', 'logistic', 'last-30-day']);
    for (const model of printed.models) {
      expect(Object.keys(model)).toEqual(['name', 'auc', 'aucLow', 'aucHigh', 'brier']);
      const { auc, aucLow, aucHigh, brier } = model as Record<string, number>;
      expect(aucLow).toBeLessThanOrEqual(auc!);
      expect(aucHigh).toBeGreaterThanOrEqual(auc!);
      expect(brier).toBeGreaterThanOrEqual(0);
    }
    expect(printed.testPatients).toBe(150);
    expect(printed.testWeeks).toBe(2);
    const again = captureIo();
    await run(['evaluate', '--simulate', '150', '--seed', '4', '--weeks', '14', '--json'], again);
    expect(again.out()).toBe(io.out());
  }, 60_000);

  it('names the option at fault', async () => {
    const io = captureIo();
    expect(await run(['evaluate', '--simulate', 'many'], io)).toBe(2);
    expect(io.err()).toMatch(/--simulate must be a whole number/);
    const small = captureIo();
    expect(await run(['evaluate', '--simulate', '5'], small)).toBe(2);
    expect(small.err()).toMatch(/--simulate/);
    const other = captureIo();
    expect(await run(['score'], other)).toBe(2);
    expect(other.err()).toMatch(/train, evaluate/);
  });
});

describe.each(testDatabaseBackends())('risk train on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('stores a new ready version with its evaluation and targeting effect', async () => {
    const io = captureIo();
    expect(await run(['train', '--simulate', '120', '--seed', '3', '--weeks', '12'], io, database)).toBe(0);
    expect(io.out()).toMatch(/Stored as risk model version 1\./);
    const rows = await database.database
      .select({
        version: riskModels.version,
        status: riskModels.status,
        evaluation: riskModels.evaluation,
        targeting: riskModels.targeting,
      })
      .from(riskModels);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ version: 1, status: 'ready' });
    expect((rows[0]!.evaluation as { models: unknown[] }).models).toHaveLength(3);
    expect((rows[0]!.targeting as { simulated: boolean }).simulated).toBe(true);
  }, 120_000);
});
