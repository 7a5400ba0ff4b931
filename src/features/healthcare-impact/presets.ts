/**
 * Country presets for the impact model (issue 15 item 4): every parameter with where it comes from. Browser
 * safe (the page's sliders start from these). Written without access to the sources: figures are given only
 * where the publication is well known; every other figure is marked `approximate` — a planning assumption
 * of the right order, not a citation — and the page says so beside it (docs/decisions/036-impact-model.md).
 */
import type { ConditionInputs, RelativeRisk } from '@/engine/impact';

export const countryIds = ['united-kingdom', 'united-states', 'india'] as const;
export type CountryId = (typeof countryIds)[number];

/** The conditions of the demo dataset the model covers: those with a sourced relative risk for adherence. */
export const modelledConditions = ['hypertension', 'type-2-diabetes', 'hyperlipidaemia'] as const;
export type ModelledCondition = (typeof modelledConditions)[number];

export const modelledConditionLabels: Record<ModelledCondition, string> = {
  hypertension: 'Hypertension',
  'type-2-diabetes': 'Type 2 diabetes',
  hyperlipidaemia: 'Hyperlipidaemia',
};

/** Where a figure comes from: the publication or agency and year, what the figure is; approximate: a planning assumption. */
export type Source = { text: string; approximate: boolean };
export type Sourced<Value> = { value: Value; source: Source };

export type ConditionPreset = {
  prevalence: Sourced<number>;
  shareTreated: Sourced<number>;
  baselineAdherence: Sourced<number>;
  hospitalisationRate: Sourced<number>;
  mortalityRate: Sourced<number>;
  costPerAdmission: Sourced<number>;
  hospitalisationRelativeRisk: Sourced<RelativeRisk>;
  mortalityRelativeRisk: Sourced<RelativeRisk>;
};

export type CountryPreset = {
  id: CountryId;
  name: string;
  currency: 'GBP' | 'USD' | 'INR';
  /** Adults (18 and over): the prevalences are of adults. */
  population: Sourced<number>;
  conditions: Record<ModelledCondition, ConditionPreset>;
};

const cited = (text: string): Source => ({ text, approximate: false });
const assumed = (text: string): Source => ({ text, approximate: true });

/**
 * Chowdhury R, Khan H, Heydon E, et al. Adherence to cardiovascular therapy: a meta-analysis of prevalence
 * and clinical consequences. Eur Heart J 2013;34:2940–8 — good vs poor adherence (statins, antihypertensives,
 * aspirin pooled).
 */
const CHOWDHURY_CVD: Sourced<RelativeRisk> = {
  value: { estimate: 0.8, ciLow: 0.77, ciHigh: 0.84 },
  source: cited(
    'Chowdhury R et al., Eur Heart J 2013;34:2940–8 (meta-analysis of cardiovascular medication adherence): relative risk of cardiovascular disease events with good vs poor adherence, 0.80 (95% CI 0.77–0.84). Used here for admissions, which it approximates.',
  ),
};
const CHOWDHURY_MORTALITY: Sourced<RelativeRisk> = {
  value: { estimate: 0.71, ciLow: 0.64, ciHigh: 0.78 },
  source: cited(
    'Chowdhury R et al., Eur Heart J 2013;34:2940–8: relative risk of all-cause mortality with good vs poor adherence, 0.71 (95% CI 0.64–0.78).',
  ),
};
const CHOWDHURY_FOR_DIABETES = (risk: Sourced<RelativeRisk>): Sourced<RelativeRisk> => ({
  value: risk.value,
  source: assumed(
    `${risk.source.text} Applied to type 2 diabetes treatment as an approximation: the meta-analysis pooled cardiovascular medicines, which most people with type 2 diabetes also take.`,
  ),
});
const WHO_ADHERENCE = (share: number, note: string): Sourced<number> => ({
  value: share,
  source:
    note === ''
      ? cited(
          'WHO, Adherence to long-term therapies: evidence for action, 2003: about 50% of patients with chronic conditions in developed countries adhere to treatment.',
        )
      : assumed(
          `WHO, Adherence to long-term therapies: evidence for action, 2003 (about 50% in developed countries; lower elsewhere). ${note}`,
        ),
});

const hospitalisationRate = (value: number, what: string): Sourced<number> => ({
  value,
  source: assumed(
    `Approximate planning assumption: ${what} admissions per treated patient per year, of the order reported in cohort studies; replace with local data.`,
  ),
});
const mortalityRate = (value: number, what: string): Sourced<number> => ({
  value,
  source: assumed(
    `Approximate planning assumption: ${what} deaths (all causes) per treated patient per year, of the order of national life tables for the age of the treated; replace with local data.`,
  ),
});

export const countryPresets: Record<CountryId, CountryPreset> = {
  'united-kingdom': {
    id: 'united-kingdom',
    name: 'United Kingdom',
    currency: 'GBP',
    population: {
      value: 53_000_000,
      source: assumed(
        'Office for National Statistics mid-year population estimates (UK about 67.6 million in mid-2022); adults 18 and over about 53 million (approximate).',
      ),
    },
    conditions: {
      hypertension: {
        prevalence: {
          value: 0.3,
          source: assumed('Health Survey for England (NHS England): about 30% of adults have hypertension (approximate).'),
        },
        shareTreated: {
          value: 0.6,
          source: assumed(
            'NCD Risk Factor Collaboration (NCD-RisC), Lancet 2021;398:957–80: treatment coverage in high-income countries about 60% (approximate).',
          ),
        },
        baselineAdherence: WHO_ADHERENCE(0.5, ''),
        hospitalisationRate: hospitalisationRate(0.02, 'cardiovascular'),
        mortalityRate: mortalityRate(0.012, ''),
        costPerAdmission: {
          value: 3500,
          source: assumed('NHS England National Cost Collection: a non-elective admission costs of the order of £3,500 (approximate).'),
        },
        hospitalisationRelativeRisk: CHOWDHURY_CVD,
        mortalityRelativeRisk: CHOWDHURY_MORTALITY,
      },
      'type-2-diabetes': {
        prevalence: {
          value: 0.07,
          source: assumed(
            'NHS Digital Quality and Outcomes Framework / Diabetes UK: about 7% of adults have diagnosed diabetes, about 90% of it type 2 (approximate).',
          ),
        },
        shareTreated: {
          value: 0.8,
          source: assumed('Approximate planning assumption: share of people with diagnosed type 2 diabetes on glucose-lowering medicine.'),
        },
        baselineAdherence: WHO_ADHERENCE(0.5, ''),
        hospitalisationRate: hospitalisationRate(0.05, 'all-cause'),
        mortalityRate: mortalityRate(0.015, ''),
        costPerAdmission: {
          value: 3500,
          source: assumed('NHS England National Cost Collection: a non-elective admission costs of the order of £3,500 (approximate).'),
        },
        hospitalisationRelativeRisk: CHOWDHURY_FOR_DIABETES(CHOWDHURY_CVD),
        mortalityRelativeRisk: CHOWDHURY_FOR_DIABETES(CHOWDHURY_MORTALITY),
      },
      hyperlipidaemia: {
        prevalence: {
          value: 0.15,
          source: assumed(
            'Approximate planning assumption: adults prescribed a statin in England (about 8 million), as a share of adults.',
          ),
        },
        shareTreated: {
          value: 1,
          source: assumed('Prevalence above is of adults already prescribed lipid-lowering treatment, so all are treated.'),
        },
        baselineAdherence: WHO_ADHERENCE(0.5, ''),
        hospitalisationRate: hospitalisationRate(0.02, 'cardiovascular'),
        mortalityRate: mortalityRate(0.01, ''),
        costPerAdmission: {
          value: 3500,
          source: assumed('NHS England National Cost Collection: a non-elective admission costs of the order of £3,500 (approximate).'),
        },
        hospitalisationRelativeRisk: CHOWDHURY_CVD,
        mortalityRelativeRisk: CHOWDHURY_MORTALITY,
      },
    },
  },
  'united-states': {
    id: 'united-states',
    name: 'United States',
    currency: 'USD',
    population: {
      value: 258_300_000,
      source: cited('US Census Bureau, 2020 Census: 258.3 million adults aged 18 and over (of 331.4 million people).'),
    },
    conditions: {
      hypertension: {
        prevalence: {
          value: 0.47,
          source: cited(
            'CDC, Hypertension Cascade (NHANES 2017–2020): nearly half of US adults (about 47%) have hypertension (130/80 mmHg definition).',
          ),
        },
        shareTreated: {
          value: 0.6,
          source: assumed(
            'Approximate planning assumption: share of adults with hypertension taking medication (CDC reports a majority of those recommended it).',
          ),
        },
        baselineAdherence: WHO_ADHERENCE(0.5, ''),
        hospitalisationRate: hospitalisationRate(0.02, 'cardiovascular'),
        mortalityRate: mortalityRate(0.012, ''),
        costPerAdmission: {
          value: 13_000,
          source: assumed(
            'AHRQ Healthcare Cost and Utilization Project (HCUP): mean hospital cost per inpatient stay of the order of $12,000–14,000 (approximate).',
          ),
        },
        hospitalisationRelativeRisk: CHOWDHURY_CVD,
        mortalityRelativeRisk: CHOWDHURY_MORTALITY,
      },
      'type-2-diabetes': {
        prevalence: {
          value: 0.11,
          source: assumed(
            'CDC National Diabetes Statistics Report: about 11% of the US population has diabetes, 90–95% of it type 2 (approximate).',
          ),
        },
        shareTreated: {
          value: 0.8,
          source: assumed('Approximate planning assumption: share of people with diagnosed type 2 diabetes on glucose-lowering medicine.'),
        },
        baselineAdherence: WHO_ADHERENCE(0.5, ''),
        hospitalisationRate: hospitalisationRate(0.05, 'all-cause'),
        mortalityRate: mortalityRate(0.015, ''),
        costPerAdmission: {
          value: 13_000,
          source: assumed(
            'AHRQ Healthcare Cost and Utilization Project (HCUP): mean hospital cost per inpatient stay of the order of $12,000–14,000 (approximate).',
          ),
        },
        hospitalisationRelativeRisk: CHOWDHURY_FOR_DIABETES(CHOWDHURY_CVD),
        mortalityRelativeRisk: CHOWDHURY_FOR_DIABETES(CHOWDHURY_MORTALITY),
      },
      hyperlipidaemia: {
        prevalence: {
          value: 0.25,
          source: assumed(
            'Approximate planning assumption: adults taking a cholesterol-lowering medicine (CDC/NHANES: of the order of a quarter of adults aged 40 and over and above).',
          ),
        },
        shareTreated: {
          value: 1,
          source: assumed('Prevalence above is of adults already taking lipid-lowering treatment, so all are treated.'),
        },
        baselineAdherence: WHO_ADHERENCE(0.5, ''),
        hospitalisationRate: hospitalisationRate(0.02, 'cardiovascular'),
        mortalityRate: mortalityRate(0.01, ''),
        costPerAdmission: {
          value: 13_000,
          source: assumed(
            'AHRQ Healthcare Cost and Utilization Project (HCUP): mean hospital cost per inpatient stay of the order of $12,000–14,000 (approximate).',
          ),
        },
        hospitalisationRelativeRisk: CHOWDHURY_CVD,
        mortalityRelativeRisk: CHOWDHURY_MORTALITY,
      },
    },
  },
  india: {
    id: 'india',
    name: 'India',
    currency: 'INR',
    population: {
      value: 950_000_000,
      source: assumed(
        'UN World Population Prospects 2022: India about 1.43 billion people in 2023; adults 18 and over about 950 million (approximate).',
      ),
    },
    conditions: {
      hypertension: {
        prevalence: {
          value: 0.25,
          source: assumed(
            'ICMR-INDIAB (Anjana RM et al., Lancet Diabetes Endocrinol 2023) and NFHS-5: about a quarter to a third of adults have hypertension (approximate).',
          ),
        },
        shareTreated: {
          value: 0.3,
          source: assumed('NCD-RisC, Lancet 2021;398:957–80: treatment coverage in India about 30% or less (approximate).'),
        },
        baselineAdherence: WHO_ADHERENCE(0.4, 'Approximate planning assumption of 40% for India.'),
        hospitalisationRate: hospitalisationRate(0.02, 'cardiovascular'),
        mortalityRate: mortalityRate(0.015, ''),
        costPerAdmission: {
          value: 30_000,
          source: assumed(
            'Approximate planning assumption: a medical admission of the order of ₹30,000 (Ayushman Bharat PM-JAY package rates are of this order).',
          ),
        },
        hospitalisationRelativeRisk: CHOWDHURY_CVD,
        mortalityRelativeRisk: CHOWDHURY_MORTALITY,
      },
      'type-2-diabetes': {
        prevalence: {
          value: 0.114,
          source: cited('ICMR-INDIAB, Anjana RM et al., Lancet Diabetes Endocrinol 2023: diabetes prevalence 11.4% of adults in India.'),
        },
        shareTreated: {
          value: 0.5,
          source: assumed('Approximate planning assumption: about half of adults with diabetes in India are diagnosed and treated.'),
        },
        baselineAdherence: WHO_ADHERENCE(0.4, 'Approximate planning assumption of 40% for India.'),
        hospitalisationRate: hospitalisationRate(0.05, 'all-cause'),
        mortalityRate: mortalityRate(0.02, ''),
        costPerAdmission: {
          value: 30_000,
          source: assumed(
            'Approximate planning assumption: a medical admission of the order of ₹30,000 (Ayushman Bharat PM-JAY package rates are of this order).',
          ),
        },
        hospitalisationRelativeRisk: CHOWDHURY_FOR_DIABETES(CHOWDHURY_CVD),
        mortalityRelativeRisk: CHOWDHURY_FOR_DIABETES(CHOWDHURY_MORTALITY),
      },
      hyperlipidaemia: {
        prevalence: {
          value: 0.05,
          source: assumed(
            'Approximate planning assumption: adults taking a statin in India (ICMR-INDIAB 2023 finds dyslipidaemia in most adults, but few are treated).',
          ),
        },
        shareTreated: {
          value: 1,
          source: assumed('Prevalence above is of adults already taking lipid-lowering treatment, so all are treated.'),
        },
        baselineAdherence: WHO_ADHERENCE(0.4, 'Approximate planning assumption of 40% for India.'),
        hospitalisationRate: hospitalisationRate(0.02, 'cardiovascular'),
        mortalityRate: mortalityRate(0.012, ''),
        costPerAdmission: {
          value: 30_000,
          source: assumed(
            'Approximate planning assumption: a medical admission of the order of ₹30,000 (Ayushman Bharat PM-JAY package rates are of this order).',
          ),
        },
        hospitalisationRelativeRisk: CHOWDHURY_CVD,
        mortalityRelativeRisk: CHOWDHURY_MORTALITY,
      },
    },
  },
};

/** A preset condition as the engine's inputs. */
export function conditionInputsOf(country: CountryPreset, condition: ModelledCondition): ConditionInputs {
  const preset = country.conditions[condition];
  return {
    population: country.population.value,
    prevalence: preset.prevalence.value,
    shareTreated: preset.shareTreated.value,
    baselineAdherence: preset.baselineAdherence.value,
    hospitalisationRate: preset.hospitalisationRate.value,
    mortalityRate: preset.mortalityRate.value,
    costPerAdmission: preset.costPerAdmission.value,
    hospitalisationRelativeRisk: preset.hospitalisationRelativeRisk.value,
    mortalityRelativeRisk: preset.mortalityRelativeRisk.value,
  };
}

/** The label every figure of these pages carries. */
export const NOT_CAUSAL_LABEL = 'Modelled from observational associations, not causal.';
