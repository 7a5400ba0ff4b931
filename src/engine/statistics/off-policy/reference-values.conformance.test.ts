/**
 * The estimators against numpy's values on the six-decision log of ../shared/testdata/statistics
 * (generate.py shows the formulas): IPS, SNIPS, the direct method and DR with a given reward model.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  directMethodEstimate,
  doublyRobustEstimate,
  inversePropensityEstimate,
  selfNormalisedEstimate,
  type OffPolicySample,
} from './estimators';

type ReferenceLog = {
  action: number;
  loggedPropensity: number;
  reward: number;
  targetPropensity: number;
  q: [number, number];
  targetSendProbability: number;
};
type Reference = { logs: ReferenceLog[]; ips: number; snips: number; directMethod: number; doublyRobust: number };

const reference = (
  JSON.parse(fs.readFileSync(path.resolve(process.cwd(), '../shared/testdata/statistics/reference.json'), 'utf8')) as {
    offPolicy: Reference;
  }
).offPolicy;

const samples: (OffPolicySample & { q: [number, number] })[] = reference.logs.map((log, index) => ({
  cluster: `patient-${index}`,
  group: 'all',
  action: log.action,
  propensity: log.loggedPropensity,
  reward: log.reward,
  targetProbabilities: [1 - log.targetSendProbability, log.targetSendProbability],
  q: log.q,
}));
const predict = (sample: OffPolicySample, action: number) => (sample as (typeof samples)[number]).q[action]!;

describe('off-policy estimators match numpy', () => {
  it('reads a log whose target probabilities agree with the reference', () => {
    reference.logs.forEach((log, index) => expect(samples[index]!.targetProbabilities[log.action]).toBeCloseTo(log.targetPropensity, 12));
  });

  it('IPS, SNIPS, direct method and doubly robust to 1e-9', () => {
    expect(inversePropensityEstimate(samples)).toBeCloseTo(reference.ips, 9);
    expect(selfNormalisedEstimate(samples)).toBeCloseTo(reference.snips, 9);
    expect(directMethodEstimate(samples, predict)).toBeCloseTo(reference.directMethod, 9);
    expect(doublyRobustEstimate(samples, predict)).toBeCloseTo(reference.doublyRobust, 9);
  });
});
