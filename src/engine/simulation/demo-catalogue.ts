/**
 * The demo catalogue: four fictional drug companies and their products. Company and brand names are
 * invented; generic names, ATC codes (WHO ATC/DDD index), strengths and forms are real. The database
 * seed loads exactly this catalogue, so ids are stable strings and must never be renamed.
 */
import type { Condition } from './conditions';

export type DrugCompany = { id: string; name: string };

/** When in the day a dose is due: one occasion for once-daily products, both for twice-daily ones. */
export type DoseOccasion = 'morning' | 'evening';

export type DemoProduct = {
  id: string;
  companyId: string;
  /** Fictional brand name. */
  name: string;
  genericName: string;
  atcCode: string;
  strength: string;
  form: 'tablet' | 'capsule' | 'inhaler' | 'inhalation-capsule';
  condition: Condition;
  doseOccasions: readonly DoseOccasion[];
  /** What the pharmacy counts in `quantity`: one tablet, or one inhaler holding `dosesPerUnit` doses. */
  dispensingUnit: 'tablet' | 'capsule' | 'inhaler';
  dosesPerUnit: number;
  /** Relative chance of being prescribed among the products for the same condition. */
  prescribingWeight: number;
};

export const demoCompanies: readonly DrugCompany[] = [
  { id: 'northwind-pharma', name: 'Northwind Pharma' },
  { id: 'halcyon-therapeutics', name: 'Halcyon Therapeutics' },
  { id: 'meridian-biolabs', name: 'Meridian Biolabs' },
  { id: 'solace-respiratory', name: 'Solace Respiratory' },
];

const morning: readonly DoseOccasion[] = ['morning'];
const evening: readonly DoseOccasion[] = ['evening'];
const twiceDaily: readonly DoseOccasion[] = ['morning', 'evening'];

export const demoProducts: readonly DemoProduct[] = [
  // Northwind Pharma: cardiovascular.
  {
    id: 'northwind-amlodipine-5mg',
    companyId: 'northwind-pharma',
    name: 'Amlonor',
    genericName: 'amlodipine',
    atcCode: 'C08CA01',
    strength: '5 mg',
    form: 'tablet',
    condition: 'hypertension',
    doseOccasions: morning,
    dispensingUnit: 'tablet',
    dosesPerUnit: 1,
    prescribingWeight: 4,
  },
  {
    id: 'northwind-lisinopril-10mg',
    companyId: 'northwind-pharma',
    name: 'Lisinor',
    genericName: 'lisinopril',
    atcCode: 'C09AA03',
    strength: '10 mg',
    form: 'tablet',
    condition: 'hypertension',
    doseOccasions: morning,
    dispensingUnit: 'tablet',
    dosesPerUnit: 1,
    prescribingWeight: 2,
  },
  {
    id: 'northwind-atorvastatin-20mg',
    companyId: 'northwind-pharma',
    name: 'Atorwind',
    genericName: 'atorvastatin',
    atcCode: 'C10AA05',
    strength: '20 mg',
    form: 'tablet',
    condition: 'hyperlipidaemia',
    doseOccasions: morning,
    dispensingUnit: 'tablet',
    dosesPerUnit: 1,
    prescribingWeight: 5,
  },
  // Halcyon Therapeutics: type 2 diabetes.
  {
    id: 'halcyon-metformin-500mg',
    companyId: 'halcyon-therapeutics',
    name: 'Glucohal',
    genericName: 'metformin',
    atcCode: 'A10BA02',
    strength: '500 mg',
    form: 'tablet',
    condition: 'type-2-diabetes',
    doseOccasions: twiceDaily,
    dispensingUnit: 'tablet',
    dosesPerUnit: 1,
    prescribingWeight: 6,
  },
  {
    id: 'halcyon-sitagliptin-100mg',
    companyId: 'halcyon-therapeutics',
    name: 'Sitahal',
    genericName: 'sitagliptin',
    atcCode: 'A10BH01',
    strength: '100 mg',
    form: 'tablet',
    condition: 'type-2-diabetes',
    doseOccasions: morning,
    dispensingUnit: 'tablet',
    dosesPerUnit: 1,
    prescribingWeight: 2,
  },
  {
    id: 'halcyon-empagliflozin-10mg',
    companyId: 'halcyon-therapeutics',
    name: 'Empahal',
    genericName: 'empagliflozin',
    atcCode: 'A10BK03',
    strength: '10 mg',
    form: 'tablet',
    condition: 'type-2-diabetes',
    doseOccasions: morning,
    dispensingUnit: 'tablet',
    dosesPerUnit: 1,
    prescribingWeight: 2,
  },
  // Meridian Biolabs: cardiovascular and anticoagulation.
  {
    id: 'meridian-rosuvastatin-10mg',
    companyId: 'meridian-biolabs',
    name: 'Rosumer',
    genericName: 'rosuvastatin',
    atcCode: 'C10AA07',
    strength: '10 mg',
    form: 'tablet',
    condition: 'hyperlipidaemia',
    doseOccasions: morning,
    dispensingUnit: 'tablet',
    dosesPerUnit: 1,
    prescribingWeight: 3,
  },
  {
    id: 'meridian-ramipril-5mg',
    companyId: 'meridian-biolabs',
    name: 'Ramimer',
    genericName: 'ramipril',
    atcCode: 'C09AA05',
    strength: '5 mg',
    form: 'capsule',
    condition: 'hypertension',
    doseOccasions: morning,
    dispensingUnit: 'capsule',
    dosesPerUnit: 1,
    prescribingWeight: 3,
  },
  {
    id: 'meridian-apixaban-5mg',
    companyId: 'meridian-biolabs',
    name: 'Apixamer',
    genericName: 'apixaban',
    atcCode: 'B01AF02',
    strength: '5 mg',
    form: 'tablet',
    condition: 'atrial-fibrillation',
    doseOccasions: twiceDaily,
    dispensingUnit: 'tablet',
    dosesPerUnit: 1,
    prescribingWeight: 3,
  },
  {
    id: 'meridian-rivaroxaban-20mg',
    companyId: 'meridian-biolabs',
    name: 'Rivamer',
    genericName: 'rivaroxaban',
    atcCode: 'B01AF01',
    strength: '20 mg',
    form: 'tablet',
    condition: 'atrial-fibrillation',
    doseOccasions: evening,
    dispensingUnit: 'tablet',
    dosesPerUnit: 1,
    prescribingWeight: 2,
  },
  // Solace Respiratory: COPD, plus two generics for the cardiovascular market.
  {
    id: 'solace-tiotropium-18mcg',
    companyId: 'solace-respiratory',
    name: 'Tiosol',
    genericName: 'tiotropium bromide',
    atcCode: 'R03BB04',
    strength: '18 µg',
    form: 'inhalation-capsule',
    condition: 'copd',
    doseOccasions: morning,
    dispensingUnit: 'capsule',
    dosesPerUnit: 1,
    prescribingWeight: 3,
  },
  {
    id: 'solace-salmeterol-fluticasone-50-500mcg',
    companyId: 'solace-respiratory',
    name: 'Salflusol',
    genericName: 'salmeterol and fluticasone propionate',
    atcCode: 'R03AK06',
    strength: '50/500 µg per dose',
    form: 'inhaler',
    condition: 'copd',
    doseOccasions: twiceDaily,
    dispensingUnit: 'inhaler',
    dosesPerUnit: 60,
    prescribingWeight: 2,
  },
  {
    id: 'solace-losartan-50mg',
    companyId: 'solace-respiratory',
    name: 'Losasol',
    genericName: 'losartan',
    atcCode: 'C09CA01',
    strength: '50 mg',
    form: 'tablet',
    condition: 'hypertension',
    doseOccasions: morning,
    dispensingUnit: 'tablet',
    dosesPerUnit: 1,
    prescribingWeight: 2,
  },
  {
    id: 'solace-simvastatin-40mg',
    companyId: 'solace-respiratory',
    name: 'Simsol',
    genericName: 'simvastatin',
    atcCode: 'C10AA01',
    strength: '40 mg',
    form: 'tablet',
    condition: 'hyperlipidaemia',
    doseOccasions: evening,
    dispensingUnit: 'tablet',
    dosesPerUnit: 1,
    prescribingWeight: 2,
  },
];

const productsById = new Map(demoProducts.map((product) => [product.id, product]));

export function findDemoProduct(productId: string): DemoProduct | undefined {
  return productsById.get(productId);
}

/** Units the pharmacy hands out for `daysSupply` days (an inhaler of 60 doses lasts 30 days at two a day). */
export function dispensedQuantity(product: DemoProduct, daysSupply: number): number {
  return Math.ceil((daysSupply * product.doseOccasions.length) / product.dosesPerUnit);
}
