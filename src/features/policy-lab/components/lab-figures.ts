/** Figures the lab pages derive from a summary: pure, so they are tested without a browser. */
import { actionLabel, type LabPersonaArmShares, type LabSummary } from '../schemas';

/** The message arm (action ≥ 1) most often chosen over weeks [from, to) — no message is not an arm. */
export function mostChosenArm(shares: LabPersonaArmShares, from: number, to: number): { action: number; share: number } | null {
  const weeks = shares.sharesByWeek.slice(from, to);
  if (weeks.length === 0 || shares.patients === 0) return null;
  let best: { action: number; share: number } | null = null;
  const actions = weeks[0]!.length;
  for (let action = 1; action < actions; action += 1) {
    const share = weeks.reduce((total, week) => total + (week[action] ?? 0), 0) / weeks.length;
    if (best === null || share > best.share) best = { action, share };
  }
  return best;
}

/**
 * The series a persona's arm-share chart draws: no message, the arms that ever reach `minimumShare` of a
 * week's decisions (most chosen at the end first), and the rest together, so the chart stays readable.
 */
export function armShareSeries(
  shares: LabPersonaArmShares,
  options: { minimumShare?: number; maximumArms?: number } = {},
): { name: string; action: number | null; data: number[] }[] {
  const minimumShare = options.minimumShare ?? 0.05;
  const maximumArms = options.maximumArms ?? 6;
  const weeks = shares.sharesByWeek;
  const actions = weeks[0]?.length ?? 0;
  const lastWeeks = weeks.slice(-4);
  const candidates: { action: number; peak: number; end: number }[] = [];
  for (let action = 1; action < actions; action += 1) {
    const peak = Math.max(0, ...weeks.map((week) => week[action] ?? 0));
    const end = lastWeeks.reduce((total, week) => total + (week[action] ?? 0), 0);
    if (peak >= minimumShare) candidates.push({ action, peak, end });
  }
  const shown = candidates.sort((left, right) => right.end - left.end || right.peak - left.peak).slice(0, maximumArms);
  const shownActions = new Set(shown.map((candidate) => candidate.action));
  const series = [
    { name: actionLabel(0), action: 0 as number | null, data: weeks.map((week) => week[0] ?? 0) },
    ...shown.map(({ action }) => ({
      name: actionLabel(action),
      action: action as number | null,
      data: weeks.map((week) => week[action] ?? 0),
    })),
  ];
  if (shownActions.size < actions - 1)
    series.push({
      name: 'Other arms',
      action: null,
      data: weeks.map((week) =>
        week.reduce((total, share, action) => (action === 0 || shownActions.has(action) ? total : total + share), 0),
      ),
    });
  return series;
}

/** The regret at the end of the run, against each baseline. */
export function finalRegret(summary: LabSummary): { vsUniformRandom: number; vsFixedDaily: number } {
  return {
    vsUniformRandom: summary.cumulativeRegret.vsUniformRandom.at(-1) ?? 0,
    vsFixedDaily: summary.cumulativeRegret.vsFixedDaily.at(-1) ?? 0,
  };
}
