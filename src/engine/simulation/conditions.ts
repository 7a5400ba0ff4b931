/** Long-term conditions the simulated cohort is treated for. */
export const conditions = ['hypertension', 'type-2-diabetes', 'hyperlipidaemia', 'atrial-fibrillation', 'copd'] as const;

export type Condition = (typeof conditions)[number];

export const conditionLabels: Record<Condition, string> = {
  hypertension: 'Hypertension',
  'type-2-diabetes': 'Type 2 diabetes',
  hyperlipidaemia: 'Hyperlipidaemia',
  'atrial-fibrillation': 'Atrial fibrillation (anticoagulation)',
  copd: 'COPD',
};
