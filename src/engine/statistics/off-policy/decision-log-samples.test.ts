import { describe, expect, it } from 'vitest';
import type { DecisionContext, MessagingPolicy } from '@/engine/policy/contract';
import { armIndex } from '@/engine/policy/message-arms';
import { createFixedDailyPolicy } from '@/engine/simulation/policies/fixed-daily-policy';
import { createUniformRandomPolicy, uniformRandomArmProbabilities } from '@/engine/simulation/policies/uniform-random-policy';
import {
  actionCount,
  certainAction,
  decisionContextFromJson,
  loggedActionIndex,
  offPolicySamples,
  rewardModelGroup,
  targetFromPolicy,
} from './decision-log-samples';

function context(scheduled: number, confirmed: number): DecisionContext {
  return {
    patientId: 'p1',
    persona: 'busy-professional',
    features: {
      ageBand: '35-44',
      sex: 'male',
      conditions: ['hypertension'],
      productCount: 1,
      preferredChannel: 'sms',
      doseObserver: 'app',
    },
    day: 20_100,
    dayIndex: 11,
    weekday: 3,
    minuteOfDay: 300,
    firstDoseMinute: 480,
    recentHistory: {
      dosesScheduledLast7Days: scheduled,
      dosesConfirmedLast7Days: confirmed,
      daysSinceLastReply: null,
      estimatedDaysOfSupplyLeft: 20,
    },
    messageCounts: { last7Days: 2, last28Days: 5, total: 5, repliesLast28Days: 1 },
  };
}

describe('decision-log rows as off-policy samples', () => {
  it('numbers actions as the log does: 0 for no message, 1 + armIndex for a message', () => {
    expect(loggedActionIndex({ action: 'no-message', category: null, framing: null })).toBe(0);
    expect(loggedActionIndex({ action: 'message', category: 'reminder', framing: 'gain' })).toBe(1 + armIndex('reminder', 'gain'));
    expect(loggedActionIndex({ action: 'message', category: 'check-in', framing: 'social' })).toBe(actionCount - 1);
    expect(() => loggedActionIndex({ action: 'message', category: 'reminder', framing: null })).toThrow(/framing/);
    expect(() => loggedActionIndex({ action: 'message', category: 'nudge', framing: 'gain' })).toThrow(/category/);
  });

  it('reads a stored context back, checking the fields it needs', () => {
    const stored = JSON.parse(JSON.stringify(context(14, 10))) as Record<string, unknown>;
    expect(decisionContextFromJson(stored)).toEqual(context(14, 10));
    expect(() => decisionContextFromJson({ ...stored, persona: 'nobody' })).toThrow(/persona/);
    expect(() => decisionContextFromJson({ ...stored, recentHistory: {} })).toThrow(/recentHistory/);
  });

  it('stratifies the reward model by persona and last week’s confirmed share', () => {
    expect(rewardModelGroup(context(0, 0))).toBe('busy-professional|none');
    expect(rewardModelGroup(context(14, 6))).toBe('busy-professional|low');
    expect(rewardModelGroup(context(14, 7))).toBe('busy-professional|mid');
    expect(rewardModelGroup(context(10, 8))).toBe('busy-professional|high');
  });

  it('asks the target policy for its probabilities in each logged context', () => {
    const fixedDaily = targetFromPolicy(createFixedDailyPolicy());
    expect(fixedDaily(context(7, 7))).toEqual(certainAction(1 + armIndex('reminder', 'neutral')));
    targetFromPolicy(createUniformRandomPolicy())(context(7, 7)).forEach((probability, action) =>
      expect(probability).toBeCloseTo(uniformRandomArmProbabilities[action]!, 12),
    );
    const coin: MessagingPolicy = {
      name: 'coin',
      version: '1',
      decide: (_, random) =>
        random() < 0.5
          ? { kind: 'no-message', propensity: 0.5 }
          : { kind: 'message', arm: { category: 'reminder', framing: 'gain' }, minuteOfDay: 480, propensity: 0.5 },
    };
    expect(() => targetFromPolicy(coin)(context(7, 7))).toThrow(/armProbabilities/);

    // Thompson sampling reports probabilities given its draw; the target is their mean over draws.
    const thompson: MessagingPolicy = {
      name: 'thompson',
      version: '1',
      decide: (_, random) => {
        const armProbabilities = random() < 0.25 ? certainAction(0) : certainAction(2);
        return { kind: 'no-message', propensity: armProbabilities[0]!, armProbabilities };
      },
    };
    const averaged = targetFromPolicy(thompson, { seed: 4, draws: 2000 })(context(7, 7));
    expect(averaged[0]).toBeCloseTo(0.25, 1);
    expect(averaged[2]).toBeCloseTo(0.75, 1);
    expect(averaged.reduce((total, probability) => total + probability, 0)).toBeCloseTo(1, 12);
    expect(targetFromPolicy(thompson, { seed: 4, draws: 7 })(context(7, 7))).toEqual(
      targetFromPolicy(thompson, { seed: 4, draws: 7 })(context(7, 7)),
    );
    expect(() => targetFromPolicy(thompson, { draws: 0 })).toThrow(/draws/);

    const [sample] = offPolicySamples([{ patientId: 'p1', context: context(7, 7), action: 0, propensity: 0.5, reward: 0.5 }], fixedDaily);
    expect(sample).toEqual({
      cluster: 'p1',
      group: 'busy-professional|high',
      action: 0,
      propensity: 0.5,
      reward: 0.5,
      targetProbabilities: certainAction(1 + armIndex('reminder', 'neutral')),
      loggingProbabilities: null,
    });
  });
});
