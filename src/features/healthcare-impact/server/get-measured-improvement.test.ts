import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { trials } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { getSimulatedAdherenceEffect, type SimulatedAdherenceEffect } from '@/features/policy-comparison';
import { getTrialResults } from '@/features/trials';
import { testSessionUser } from '@/lib/server/session-testing';
import { getMeasuredImprovement } from './get-measured-improvement';

// The comparison is read from the simulation cache (filled by a start-up simulation this test does not run), and
// a completed trial's results need a whole enrolled trial: both are stood in for, the trial list is the database's.
vi.mock('@/features/policy-comparison', () => ({ getSimulatedAdherenceEffect: vi.fn(() => null) }));
vi.mock('@/features/trials', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/features/trials')>()),
  getTrialResults: vi.fn(),
}));

const official = testSessionUser('government-1', 'government-official');
const now = new Date('2026-09-01T12:00:00Z');

const simulated: SimulatedAdherenceEffect = {
  policyLabel: 'Personalised (learning policy)',
  controlLabel: 'No messages',
  policyShare: 0.6,
  controlShare: 0.5,
  points: 10,
  patients: 1000,
  seed: 1,
  period: { from: '2025-01-01', to: '2025-12-31' },
};

type TrialResults = Awaited<ReturnType<typeof getTrialResults>>;
const blinded = { state: 'blinded' } as TrialResults;
const unblinded = {
  state: 'unblinded',
  period: { from: '2026-01-12', to: '2026-04-05' },
  population: 'intention to treat, 4 randomised',
  analysis: { riskDifference: { estimate: 0.05, ciLow: -0.01, ciHigh: 0.11 }, n: { control: 2, intervention: 2 } },
} as unknown as TrialResults;

describe.each(testDatabaseBackends())('getMeasuredImprovement on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
    vi.mocked(getSimulatedAdherenceEffect).mockReturnValue(null);
    vi.mocked(getTrialResults).mockReset();
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('has nothing to start from without a trial or a simulated comparison: the user sets it', async () => {
    const measured = await getMeasuredImprovement({ database: database.database, actor: official, now });
    expect(measured).toEqual({ trial: null, comparison: null, initial: 'own' });
  });

  it('starts from the simulated comparison when no trial is complete', async () => {
    await database.database.insert(trials).values({ id: 'running', name: 'Running trial', startDate: '2026-08-01', weeks: 12 });
    vi.mocked(getTrialResults).mockResolvedValue(blinded);
    vi.mocked(getSimulatedAdherenceEffect).mockReturnValue(simulated);
    const measured = await getMeasuredImprovement({ database: database.database, actor: official, now });
    expect(measured).toEqual({ trial: null, comparison: { source: 'comparison', ...simulated }, initial: 'comparison' });
  });

  it('starts from the newest completed trial when there is one, and still offers the comparison', async () => {
    await database.database.insert(trials).values([
      { id: 'running', name: 'Running trial', startDate: '2026-08-01', weeks: 12 },
      { id: 'complete', name: 'Complete trial', startDate: '2026-01-12', weeks: 12, synthetic: true },
    ]);
    vi.mocked(getTrialResults).mockImplementation(async ({ trialId }) => (trialId === 'complete' ? unblinded : blinded));
    vi.mocked(getSimulatedAdherenceEffect).mockReturnValue(simulated);
    const measured = await getMeasuredImprovement({ database: database.database, actor: official, now });
    expect(measured.initial).toBe('trial');
    expect(measured.trial).toEqual({
      source: 'trial',
      trialName: 'Complete trial',
      synthetic: true,
      points: { estimate: 5, ciLow: -1, ciHigh: 11 },
      period: { from: '2026-01-12', to: '2026-04-05' },
      population: 'intention to treat, 4 randomised',
      participants: { control: 2, intervention: 2 },
    });
    expect(measured.comparison).toEqual({ source: 'comparison', ...simulated });
  });

  it('refuses a visitor who is not signed in', async () => {
    await expect(getMeasuredImprovement({ database: database.database, actor: null, now })).rejects.toThrow('No user logged in');
  });
});
