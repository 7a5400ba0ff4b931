/**
 * Country presets for the impact model (issue 15 item 4): every parameter with where it comes from. Browser
 * safe (the page's sliders start from these). Each source names the publication or agency, its year, the exact
 * figure and its address; `approximate` marks a figure that is not the parameter itself for that country — a
 * transfer from another country, condition or year, a conversion, a rounded press figure, or a planning
 * assumption where nothing was found — and the page says so beside it (docs/decisions/036-impact-model.md).
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
 * and clinical consequences. Eur Heart J 2013;34:2940–8 (PubMed 23907142) — good (≥ 80%) vs poor adherence,
 * by medicine: antihypertensives for hypertension, statins for hyperlipidaemia.
 */
const CHOWDHURY =
  'Chowdhury R et al., Eur Heart J 2013;34:2940–8 (meta-analysis of 44 prospective studies, 1,978,919 participants; PubMed 23907142)';
const ANTIHYPERTENSIVE_CVD: Sourced<RelativeRisk> = {
  value: { estimate: 0.81, ciLow: 0.76, ciHigh: 0.86 },
  source: cited(
    `${CHOWDHURY}: relative risk of cardiovascular disease (fatal or non-fatal coronary heart disease, stroke or sudden cardiac death) with good (≥ 80%) vs poor adherence to antihypertensive medicines, 0.81 (95% CI 0.76–0.86). Used here for admissions, which it approximates.`,
  ),
};
const ANTIHYPERTENSIVE_MORTALITY: Sourced<RelativeRisk> = {
  value: { estimate: 0.71, ciLow: 0.64, ciHigh: 0.78 },
  source: cited(
    `${CHOWDHURY}: relative risk of all-cause mortality with good (≥ 80%) vs poor adherence to antihypertensive medicines, 0.71 (95% CI 0.64–0.78).`,
  ),
};
const STATIN_CVD: Sourced<RelativeRisk> = {
  value: { estimate: 0.85, ciLow: 0.81, ciHigh: 0.89 },
  source: cited(
    `${CHOWDHURY}: relative risk of cardiovascular disease (fatal or non-fatal coronary heart disease, stroke or sudden cardiac death) with good (≥ 80%) vs poor adherence to statins, 0.85 (95% CI 0.81–0.89). Used here for admissions, which it approximates.`,
  ),
};
const STATIN_MORTALITY: Sourced<RelativeRisk> = {
  value: { estimate: 0.55, ciLow: 0.46, ciHigh: 0.67 },
  source: cited(
    `${CHOWDHURY}: relative risk of all-cause mortality with good (≥ 80%) vs poor adherence to statins, 0.55 (95% CI 0.46–0.67).`,
  ),
};
const FOR_DIABETES = (risk: Sourced<RelativeRisk>): Sourced<RelativeRisk> => ({
  value: risk.value,
  source: assumed(
    `${risk.source.text} Applied to type 2 diabetes treatment as an approximation: no relative risk for adherence to glucose-lowering medicines was found in the sources searched, and the meta-analysis covers cardiovascular medicines only.`,
  ),
});

const WHO_ADHERENCE: Sourced<number> = {
  value: 0.5,
  source: cited(
    'WHO, Adherence to long-term therapies: evidence for action, 2003 (Sabaté E, ed.; apps.who.int/medicinedocs/en/d/Js4883e): “in developed countries only 50% of patients who suffer from chronic diseases adhere to treatment recommendations”.',
  ),
};
/** India, hypertension: the pooled share non-adherent in Indian studies; other conditions take it as a transfer. */
const INDIA_ADHERENCE_TEXT =
  'Systematic review and meta-analysis, Prevalence of non-adherence to antihypertensive medication in India, Curr Hypertens Rev 2025 (doi 10.2174/0115734021377630250903105143): pooled non-adherence 48% (95% CI 39–56%) across 40 Indian studies of 18,808 patients with hypertension, so 52% adherent. The studies’ measures vary (an earlier review found most used questionnaires), not the refill PDC ≥ 0.8 the relative risks use.';
const INDIA_ADHERENCE = (condition: string): Sourced<number> => ({
  value: 0.52,
  source: assumed(
    condition === 'hypertension'
      ? INDIA_ADHERENCE_TEXT
      : `${INDIA_ADHERENCE_TEXT} Transferred from hypertension to ${condition}: no Indian figure for ${condition} was found in the sources searched.`,
  ),
});

/** Quan H et al., Can J Cardiol 2013 (PubMed 23465341): 3,531,089 Canadian adults newly diagnosed with hypertension. */
const CANADA_HYPERTENSION = `Quan H et al., Outcomes among 3.5 million newly diagnosed hypertensive Canadians, Can J Cardiol 2013 (PubMed 23465341): 3,531,089 adults newly diagnosed with hypertension, median follow-up 6.1 years`;
const hypertensionAdmissions = (country: string): Sourced<number> => ({
  value: 0.0193,
  source: assumed(
    `${CANADA_HYPERTENSION}: any cardiovascular hospitalisation 19.3 per 1,000 person-years, so 0.0193 per patient-year. Transferred from Canada to ${country}; the cohort is of all newly diagnosed adults, not only the treated.`,
  ),
});
const hypertensionDeaths = (country: string): Sourced<number> => ({
  value: 0.0224,
  source: assumed(
    `${CANADA_HYPERTENSION}: crude all-cause mortality 22.4 per 1,000 person-years, so 0.0224 per patient-year. Transferred from Canada to ${country}; the cohort is of all newly diagnosed adults, not only the treated.`,
  ),
});
const diabetesDeaths = (country: string): Sourced<number> => ({
  value: 0.0147,
  source: assumed(
    `Israeli population cohort of new-onset diabetes, Cardiovasc Diabetol 2017 (doi 10.1186/s12933-017-0583-x): 4,464 of 31,987 adults (14%) died over a median follow-up of 9.5 years, about 14.7 per 1,000 a year (14% ÷ 9.5, a crude conversion). Transferred from Israel to ${country}. For comparison, a Swedish cohort of new-onset type 2 diabetes followed for 24 years from 1991 (Skaraborg, PubMed 29421310) had 48.2 deaths per 1,000 person-years.`,
  ),
});
/**
 * Khalid JM et al., Int J Clin Pract 2014 (PubMed 24112108): hospitalisations of people with type 2 diabetes in
 * England. The diabetes-related rate, not the all-cause one (33.9 per 100 patient-years, elective admissions
 * included): the relative risk applied is for events that adherence affects, so an all-cause rate would count
 * admissions that no adherence changes.
 */
const ENGLAND_DIABETES_ADMISSIONS =
  'Khalid JM, Raluy-Callado M, Curtis BH, Boye KS, Maguire A, Reaney M, Rates and risk of hospitalisation among patients with type 2 diabetes: retrospective cohort study using the UK General Practice Research Database linked to English Hospital Episode Statistics, Int J Clin Pract 2014 (doi 10.1111/ijcp.12265; PubMed 24112108; PMC4282286): among 97,689 patients with type 2 diabetes in England, 2006–2010, diabetes-related hospitalisation 18.8 per 100 patient-years (all-cause 33.9, elective admissions included), so 0.188 per patient-year. All people with type 2 diabetes, not only the treated';
const diabetesAdmissions = (country: string): Sourced<number> => ({
  value: 0.188,
  source: assumed(
    country === 'the UK'
      ? `${ENGLAND_DIABETES_ADMISSIONS}. England’s figure used for the UK.`
      : `${ENGLAND_DIABETES_ADMISSIONS}. Transferred from England to ${country}: no figure for ${country} was found in the sources searched.`,
  ),
});
const US_DIABETES_ADMISSIONS: Sourced<number> = {
  value: 0.234,
  source: assumed(
    'AHRQ HCUP Statistical Brief #279, Diabetes-related inpatient stays, 2018 (Fingar KR, Reid LD, July 2021): about 8 million hospitalisations a year associated with diabetes (any listed diagnosis), with 34.2 million people diagnosed, so about 0.234 per person a year (a conversion). All types of diabetes, all people diagnosed rather than only the treated.',
  ),
};
/** Shalev V et al., Arch Intern Med 2009 (PubMed 19204217): Israeli adults who began a statin, primary and secondary prevention. */
const lipidDeaths = (country: string): Sourced<number> => ({
  value: 0.013,
  source: assumed(
    `Shalev V, Chodick G, Silber H, et al., Continuation of statin treatment and all-cause mortality: a population-based cohort study, Arch Intern Med 2009 (doi 10.1001/archinternmed.2008.552; PubMed 19204217): of 229,918 adults in an Israeli health maintenance organisation who began a statin in 1998–2006, 136,052 without cardiovascular disease (mean follow-up 4.0 years) had 4,259 deaths and 93,866 with coronary heart disease (mean 5.0 years) 8,906 deaths: 13,165 deaths in about 1.01 million person-years (patients × mean follow-up, a crude conversion), 13.0 per 1,000 a year. Transferred from Israel to ${country}. For comparison, US veterans aged 75 and over taking statins had 78.7 deaths per 1,000 person-years (JAMA 2020;324:68–78).`,
  ),
});
/** Shalev V et al., Am J Cardiol 2012: Israeli adults without cardiovascular disease who began a statin. */
const lipidAdmissions = (country: string): Sourced<number> => ({
  value: 0.0102,
  source: assumed(
    `Shalev V, Goldshtein I, Porath A, Weitzman D, Shemer J, Chodick G, Continuation of statin therapy and primary prevention of nonfatal cardiovascular events, Am J Cardiol 2012, pp. 1779–86 (doi 10.1016/j.amjcard.2012.08.013): 171,535 Israeli adults aged 45–75 without cardiovascular disease who began a statin in 1998–2009 had acute cardiovascular events (myocardial infarction or coronary revascularisation) at 10.22 per 1,000 person-years (993,519 person-years), so 0.0102 per patient-year. Transferred from Israel to ${country}. Primary prevention and two kinds of event only, so it understates admissions among all the treated: US commercially insured patients with atherosclerotic cardiovascular disease starting a low- or moderate-intensity statin had 87.0 cardiovascular events (inpatient or emergency department) per 1,000 person-years (Huang Q et al., Am Health Drug Benefits 2016;9(8):434–44, PMC5394554).`,
  ),
});
const allTreated: Sourced<number> = {
  value: 1,
  source: assumed('The prevalence above is of adults already taking lipid-lowering treatment, so all are treated.'),
};
const UK_DIABETES_TREATED: Sourced<number> = {
  value: 0.687,
  source: assumed(
    'Prevalence, care, and outcomes for patients with diet-controlled diabetes in general practice: cross sectional survey, Lancet 2004;364(9432):423–8 (doi 10.1016/S0140-6736(04)16765-2): 31.3% of 7,870 patients with type 2 diabetes in 42 UK general practices were managed with diet only (practices ranged from 15.6% to 73.2%), so 68.7% took glucose-lowering medicine. A figure of 2004 from a sample of practices; no recent national figure was found in the sources searched.',
  ),
};
const US_DIABETES_TREATED: Sourced<number> = {
  value: 0.84,
  source: assumed(
    'CDC, Diabetes data and trends, “Crude and age-adjusted percentage of using any diabetes medication among adults with diabetes, United States, 1997–2006” (National Health Interview Survey; cdc.gov/diabetes/statistics/meduse/fig3.htm, as archived in 2009): in 2006, 84% of adults with diabetes took diabetes medication (pills, insulin or both), little changed since 1997. All types of diabetes, type 1 included, so not type 2 alone; a figure of 2006.',
  ),
};

const NHS_COST: Sourced<number> = {
  value: 1590,
  source: assumed(
    'NHS reference costs 2016/17 (England), as reported by HFMA, “Reference cost data published”, 5 December 2017 (hfma.org.uk): average unit cost of a non-elective inpatient episode £1,590 (elective £3,684), excluding excess bed days. Per finished consultant episode rather than per admission, 2016/17 prices, England’s figure used for the UK.',
  ),
};
const HCUP_COST: Sourced<number> = {
  value: 12_300,
  source: assumed(
    'AHRQ HCUP Statistical Brief #146, Costs for hospital stays in the United States, 2010 (Pfuntner A, Wier LM, Steiner C, 2013; hcup-us.ahrq.gov/reports/statbriefs/sb146.jsp): average hospital cost per stay $12,300 for adults aged 65–84 ($12,100 aged 45–64; $9,700 all stays). The 65–84 figure is used as most of the treated are older adults; 2010 prices, all causes of admission.',
  ),
};
const NSS_COST: Sourced<number> = {
  value: 31_845,
  source: assumed(
    'National Statistical Office, NSS 75th round, Household social consumption: health (July 2017 – June 2018), as reported by Tehelka, 15 December 2019: average household medical expenditure per hospitalisation case (excluding childbirth) ₹31,845 in private hospitals, ₹4,452 in government hospitals (₹16,676 rural, ₹26,475 urban, all hospitals). The private figure is used as the nearest to the full cost of an admission: what households pay in government hospitals leaves out the public subsidy.',
  ),
};

export const countryPresets: Record<CountryId, CountryPreset> = {
  'united-kingdom': {
    id: 'united-kingdom',
    name: 'United Kingdom',
    currency: 'GBP',
    population: {
      value: 53_000_000,
      source: assumed(
        'Office for National Statistics mid-year estimates: the UK population was 67.6 million in mid-2022 (as reported, e.g., by the Stratford Herald, 2 April 2024). No count of adults aged 18 and over was found in the sources searched; 53 million is 78% of it, the adult share the US Census 2020 found (77.9%).',
      ),
    },
    conditions: {
      hypertension: {
        prevalence: {
          value: 0.3,
          source: assumed(
            'NHS Digital, Health Survey for England 2021 part 2, Adults’ health: hypertension (digital.nhs.uk): 30% of adults (16 and over) in England had hypertension (≥ 140/90 mmHg or on medication for it). England’s figure used for the UK.',
          ),
        },
        shareTreated: {
          value: 0.54,
          source: assumed(
            'Continued improvement in hypertension management in England: results from the Health Survey for England 2006, Hypertension 2009;53:480–6 (doi 10.1161/HYPERTENSIONAHA.108.125617): 54% of adults with hypertension were treated in 2006. England’s figure of 2006 used for the UK today; no recent treated share was found in the sources searched.',
          ),
        },
        baselineAdherence: WHO_ADHERENCE,
        hospitalisationRate: hypertensionAdmissions('the UK'),
        mortalityRate: hypertensionDeaths('the UK'),
        costPerAdmission: NHS_COST,
        hospitalisationRelativeRisk: ANTIHYPERTENSIVE_CVD,
        mortalityRelativeRisk: ANTIHYPERTENSIVE_MORTALITY,
      },
      'type-2-diabetes': {
        prevalence: {
          value: 0.062,
          source: assumed(
            'Diabetes UK, Diabetes prevalence 2014 (from the Quality and Outcomes Framework): UK average 6.2% of people aged 17 and over registered with a GP have diagnosed diabetes (3.3 million). All types: about 90% of adults with diabetes have type 2 (National Diabetes Audit, as quoted in a parliamentary answer of 2 February 2016), so this slightly overstates type 2.',
          ),
        },
        shareTreated: UK_DIABETES_TREATED,
        baselineAdherence: WHO_ADHERENCE,
        hospitalisationRate: diabetesAdmissions('the UK'),
        mortalityRate: diabetesDeaths('the UK'),
        costPerAdmission: NHS_COST,
        hospitalisationRelativeRisk: FOR_DIABETES(ANTIHYPERTENSIVE_CVD),
        mortalityRelativeRisk: FOR_DIABETES(ANTIHYPERTENSIVE_MORTALITY),
      },
      hyperlipidaemia: {
        prevalence: {
          value: 0.15,
          source: assumed(
            'About 8 million people in the UK take statins (The Times, on the NICE statin guidance; Daily Mail, 15 January 2023, for England): 8 million of about 53 million adults is 15%. A rounded press figure.',
          ),
        },
        shareTreated: allTreated,
        baselineAdherence: WHO_ADHERENCE,
        hospitalisationRate: lipidAdmissions('the UK'),
        mortalityRate: lipidDeaths('the UK'),
        costPerAdmission: NHS_COST,
        hospitalisationRelativeRisk: STATIN_CVD,
        mortalityRelativeRisk: STATIN_MORTALITY,
      },
    },
  },
  'united-states': {
    id: 'united-states',
    name: 'United States',
    currency: 'USD',
    population: {
      value: 258_300_000,
      source: cited(
        'US Census Bureau, 2020 Census (census.gov, “United States adult population grew faster than nation’s total population from 2010 to 2020”, August 2021): 258.3 million adults aged 18 and over (77.9% of 331.4 million people).',
      ),
    },
    conditions: {
      hypertension: {
        prevalence: {
          value: 0.324,
          source: cited(
            'Samanic CM et al., Prevalence of self-reported hypertension and antihypertensive medication use among adults — United States, 2017, MMWR 2020;69(14):393–8 (PMC7147902; BRFSS 2017): 32.4% (95% CI 32.1–32.7%) of adults reported having been told they have high blood pressure (unadjusted). Diagnosed hypertension, the population that can be treated.',
          ),
        },
        shareTreated: {
          value: 0.76,
          source: cited(
            'Samanic CM et al., MMWR 2020;69(14):393–8 (PMC7147902; BRFSS 2017): among adults reporting hypertension, 76.0% (95% CI 75.5–76.4%) reported taking antihypertensive medication (unadjusted).',
          ),
        },
        baselineAdherence: WHO_ADHERENCE,
        hospitalisationRate: hypertensionAdmissions('the US'),
        mortalityRate: hypertensionDeaths('the US'),
        costPerAdmission: HCUP_COST,
        hospitalisationRelativeRisk: ANTIHYPERTENSIVE_CVD,
        mortalityRelativeRisk: ANTIHYPERTENSIVE_MORTALITY,
      },
      'type-2-diabetes': {
        prevalence: {
          value: 0.101,
          source: assumed(
            'CDC, National Diabetes Statistics Report, Appendix Table 1 (cdc.gov/diabetes/data/statistics-report/appendix.html): diagnosed diabetes in 10.1% (95% CI 9.2–11.0%) of adults aged 18 and over, 2017–2020, age-adjusted. All types, so it slightly overstates type 2.',
          ),
        },
        shareTreated: US_DIABETES_TREATED,
        baselineAdherence: WHO_ADHERENCE,
        hospitalisationRate: US_DIABETES_ADMISSIONS,
        mortalityRate: diabetesDeaths('the US'),
        costPerAdmission: HCUP_COST,
        hospitalisationRelativeRisk: FOR_DIABETES(ANTIHYPERTENSIVE_CVD),
        mortalityRelativeRisk: FOR_DIABETES(ANTIHYPERTENSIVE_MORTALITY),
      },
      hyperlipidaemia: {
        prevalence: {
          value: 0.204,
          source: assumed(
            'Mercado C, DeSimone AK, Odom E, Gillespie C, Ayala C, Loustalot F, Prevalence of cholesterol treatment eligibility and medication use among adults — United States, 2005–2012, MMWR 64(47) (doi 10.15585/mmwr.mm6447a1; NHANES 2005–2012): 36.7% of adults aged 21 and over (78.1 million) were on or eligible for cholesterol treatment, and 55.5% of them were taking cholesterol-lowering medication, so 0.367 × 0.555 = 20.4% of adults took it (a conversion). For comparison, Gu Q et al., NCHS Data Brief No. 177, 2014 (cdc.gov/nchs/products/databriefs/db177.htm): 27.9% of adults aged 40 and over in 2011–2012, 93% of them taking a statin.',
          ),
        },
        shareTreated: allTreated,
        baselineAdherence: WHO_ADHERENCE,
        hospitalisationRate: lipidAdmissions('the US'),
        mortalityRate: lipidDeaths('the US'),
        costPerAdmission: HCUP_COST,
        hospitalisationRelativeRisk: STATIN_CVD,
        mortalityRelativeRisk: STATIN_MORTALITY,
      },
    },
  },
  india: {
    id: 'india',
    name: 'India',
    currency: 'INR',
    population: {
      value: 994_000_000,
      source: assumed(
        'UNFPA, State of World Population 2023 (as reported by Rediff, 19 April 2023): India 1,428.6 million people in mid-2023, 25% aged 0–14 and 18% aged 10–19. Adults 18 and over taken as 1 − 25% − 3/10 of 18% (ages 15–17, assuming the 10–19 group is spread evenly) = 69.6%, so about 994 million.',
      ),
    },
    conditions: {
      hypertension: {
        prevalence: {
          value: 0.355,
          source: cited(
            'ICMR-INDIAB, Anjana RM et al., Metabolic non-communicable disease health report of India, Lancet Diabetes Endocrinol 2023;11:474–89 (doi 10.1016/S2213-8587(23)00119-5), as reported by Business Standard, 9 June 2023: hypertension in 35.5% of adults (113,043 people aged 20 and over, 31 states and union territories).',
          ),
        },
        shareTreated: {
          value: 0.145,
          source: cited(
            'National NCD Monitoring Survey 2017–18, J Hum Hypertens 2022 (nature.com/articles/s41371-022-00692-y): of adults aged 18–69 with hypertension, 14.5% (95% CI 12.7–16.5%) were under treatment.',
          ),
        },
        baselineAdherence: INDIA_ADHERENCE('hypertension'),
        hospitalisationRate: hypertensionAdmissions(
          'India (a high-income country’s cohort: no Indian figure was found in the sources searched)',
        ),
        mortalityRate: hypertensionDeaths('India (a high-income country’s cohort: no Indian figure was found in the sources searched)'),
        costPerAdmission: NSS_COST,
        hospitalisationRelativeRisk: ANTIHYPERTENSIVE_CVD,
        mortalityRelativeRisk: ANTIHYPERTENSIVE_MORTALITY,
      },
      'type-2-diabetes': {
        prevalence: {
          value: 0.114,
          source: cited(
            'ICMR-INDIAB, Anjana RM et al., Lancet Diabetes Endocrinol 2023;11:474–89 (doi 10.1016/S2213-8587(23)00119-5), as reported by Business Standard, 9 June 2023: diabetes in 11.4% of adults aged 20 and over (about 101 million).',
          ),
        },
        shareTreated: {
          value: 0.361,
          source: cited(
            'Mathur P, Leburu S, Kulothungan V, Prevalence, awareness, treatment and control of diabetes in India from the countrywide National NCD Monitoring Survey, Front Public Health 2022 (doi 10.3389/fpubh.2022.748157): of adults aged 18–69 with diabetes, 36.1% were on treatment.',
          ),
        },
        baselineAdherence: INDIA_ADHERENCE('type 2 diabetes'),
        hospitalisationRate: diabetesAdmissions('India'),
        mortalityRate: diabetesDeaths('India'),
        costPerAdmission: NSS_COST,
        hospitalisationRelativeRisk: FOR_DIABETES(ANTIHYPERTENSIVE_CVD),
        mortalityRelativeRisk: FOR_DIABETES(ANTIHYPERTENSIVE_MORTALITY),
      },
      hyperlipidaemia: {
        prevalence: {
          value: 0.078,
          source: assumed(
            'Choudhry NK, Dugani S, Shrank WH, et al., Despite increased use and sales of statins in India, per capita prescription rates remain far below high-income countries, Health Aff 2014;33(2):273–82 (doi 10.1377/hlthaff.2013.0388; IMS Health sales data, February 2006 – January 2010): “the proportion of the Indian population receiving a defined daily statin dose increased from 3.35 percent to 7.78 percent”. Taken as 7.8% of adults: it is a sales volume (daily doses sold per head) rather than a count of people, the abstract gives no age range (if of all ages, about 11% of adults, the users being adults), and the same abstract counts 84.1 monthly statin prescriptions per 1,000 patients with coronary heart disease. A figure of 2010; ICMR-INDIAB (Lancet Diabetes Endocrinol 2023) finds dyslipidaemia in 81.2% of adults.',
          ),
        },
        shareTreated: allTreated,
        baselineAdherence: INDIA_ADHERENCE('hyperlipidaemia'),
        hospitalisationRate: lipidAdmissions('India'),
        mortalityRate: lipidDeaths('India'),
        costPerAdmission: NSS_COST,
        hospitalisationRelativeRisk: STATIN_CVD,
        mortalityRelativeRisk: STATIN_MORTALITY,
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
