/**
 * Where the national impact model's adherence improvement comes from (issue 15 item 4). Browser safe: the
 * page's choice between the sources uses the same names.
 */
export type ImprovementSource = 'trial' | 'comparison' | 'own';

/** A measurement on patients (a completed trial) first, then the simulated comparison, else the user's own value. */
export function defaultImprovementSource(available: { trial: unknown; comparison: unknown }): ImprovementSource {
  if (available.trial !== null) return 'trial';
  if (available.comparison !== null) return 'comparison';
  return 'own';
}
