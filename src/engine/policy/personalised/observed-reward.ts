/**
 * The reward the policy learns from: only what the product observes, never the simulator's truth. The
 * simulator and the live loop compute it with this one function.
 *
 * Confirmation bias: a patient whose doses are confirmed only by replying "taken" on WhatsApp has
 * confirmations only on days a message was sent, so their confirmed share would make every message look
 * good and "no message" look like zero adherence. For them the dose part is left out (it is not
 * comparable between actions); only what is comparable — an opt-out — counts, and `updatePolicyState`
 * does not learn from their days at all (they are decided by their persona's posterior, learned from
 * patients with app or smart-bottle confirmation). App logging and smart bottles confirm doses whether
 * or not a message was sent, so their share is comparable across actions.
 */
import type { DoseObserver } from '@/engine/simulation/records';

export type ObservedOutcome = {
  dosesScheduled: number;
  /** Doses confirmed taken that day (app log, WhatsApp reply or smart bottle). */
  dosesConfirmed: number;
  replied: boolean;
  optedOut: boolean;
  /** How the patient's doses are confirmed. */
  doseObserver: DoseObserver;
};

/*
 * Weights: a reply is a small bonus (two-way engagement keeps patients on therapy, but only a message can
 * draw one, so a large bonus would reward sending for its own sake); an opt-out costs a full day of
 * confirmed doses, because it ends all messaging for that patient.
 */
export const observedRewardWeights = { reply: 0.01, optOut: 1 } as const;

/** Whether the patient's dose confirmations exist only when a message was sent (WhatsApp replies). */
export function confirmationsNeedMessage(doseObserver: DoseObserver): boolean {
  return doseObserver === 'whatsapp';
}

export function observedReward(outcome: ObservedOutcome): number {
  const doses =
    confirmationsNeedMessage(outcome.doseObserver) || outcome.dosesScheduled <= 0
      ? 0
      : Math.min(1, outcome.dosesConfirmed / outcome.dosesScheduled);
  return doses + (outcome.replied ? observedRewardWeights.reply : 0) - (outcome.optedOut ? observedRewardWeights.optOut : 0);
}
