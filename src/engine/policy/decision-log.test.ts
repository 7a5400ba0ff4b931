import { describe, expect, it } from 'vitest';
import type { MessagingPolicy, PolicyFeedback } from './contract';
import { armIndex } from './message-arms';
import { observedReward, observedRewardWeights } from './personalised';
import { recordDecisions, type DecisionLogEntry } from './decision-log';
import { createFixedDailyPolicy } from '@/engine/simulation/policies/fixed-daily-policy';
import { createFixedWeeklyPolicy } from '@/engine/simulation/policies/fixed-weekly-policy';
import { simulateCohort } from '@/engine/simulation/simulate-cohort';

const startDay = 20_089; // 2025-01-01

function logOf(policy: MessagingPolicy, days = 30) {
  const entries: DecisionLogEntry[] = [];
  const summary = simulateCohort({
    patientCount: 20,
    days,
    seed: 4,
    startDay,
    policy: recordDecisions(policy, (entry) => entries.push(entry)),
  });
  return { entries, summary };
}

describe('recordDecisions', () => {
  it('logs one decision per patient-day the policy was asked, with its action, propensity and rewards', () => {
    const { entries, summary } = logOf(createFixedWeeklyPolicy(), 28);
    const unwrapped = simulateCohort({ patientCount: 20, days: 28, seed: 4, startDay, policy: createFixedWeeklyPolicy() });
    // The wrapper only listens: the same cohort lives the same days.
    expect(summary).toEqual(unwrapped);
    expect(new Set(entries.map((entry) => `${entry.patientId}|${entry.context.dayIndex}`)).size).toBe(entries.length);
    expect(entries.filter((entry) => entry.action !== 0)).toHaveLength(summary.messagesPerPatient * 20);
    for (const entry of entries) {
      expect(entry.action).toBe(entry.context.weekday === 1 ? 1 + armIndex('check-in', 'neutral') : 0);
      expect(entry).toMatchObject({ propensity: 1, armProbabilities: null, policyName: 'fixed-weekly', policyVersion: '1' });
      // Confirmed doses, a small bonus for a reply, a day's worth off for an opt-out.
      expect(entry.observedReward).toBeGreaterThanOrEqual(-1);
      expect(entry.observedReward).toBeLessThanOrEqual(1 + observedRewardWeights.reply);
      expect(entry.reward).toBeGreaterThanOrEqual(0);
      expect(entry.reward).toBeLessThanOrEqual(1);
    }
  });

  it('logs the observed reward the policy learns from, not the truth', () => {
    const observed: number[] = [];
    const listening: MessagingPolicy = { ...createFixedDailyPolicy(), learn: (feedback) => observed.push(feedback.observedReward) };
    const { entries } = logOf(listening);
    expect(entries.map((entry) => entry.observedReward)).toEqual(observed);
    const mean = (values: number[]) => values.reduce((total, value) => total + value, 0) / values.length;
    // Confirmations miss doses taken (and WhatsApp-confirmed patients score no doses at all).
    expect(mean(observed)).toBeLessThan(mean(entries.map((entry) => entry.reward)));
    expect(observedReward({ dosesScheduled: 2, dosesConfirmed: 1, replied: false, optedOut: false, doseObserver: 'app' })).toBe(0.5);
  });

  it('passes the end of each day on to a policy with a batch update', () => {
    const ended: number[] = [];
    const batch: MessagingPolicy = { ...createFixedDailyPolicy(), endDay: (dayIndex) => ended.push(dayIndex) };
    logOf(batch, 5);
    expect(ended).toEqual([0, 1, 2, 3, 4]);
    expect(recordDecisions(createFixedDailyPolicy(), () => undefined).endDay).toBeUndefined();
  });

  it('passes feedback on to a learning policy, with the version each decision was drawn from', () => {
    let version = 1;
    const learned: PolicyFeedback[] = [];
    const learning: MessagingPolicy = {
      name: 'counting',
      get version() {
        return String(version);
      },
      decide: () => ({ kind: 'no-message', propensity: 1 }),
      learn: (feedback) => {
        learned.push(feedback);
        // A version bump between decide and its feedback must not relabel the decision.
        version += 1;
      },
    };
    const { entries } = logOf(learning, 3);
    expect(learned).toHaveLength(entries.length);
    entries.forEach((entry, index) => expect(entry.policyVersion).toBe(String(index + 1)));
  });
});
