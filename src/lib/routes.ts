/** Every route the navigation of seed-spec §2 refers to, in one place. */
export const routes = {
  home: '/',
  login: '/login',
  passwordReset: '/login/reset-password',
  profile: '/profile',
  settings: '/settings',
  administration: '/admin',
  riskWorklist: '/worklist',
  trial: '/trials/cohort-a',
  manufacturingPortal: '/app/manufacturing',
  drugCompanySelector: '/app/drug-company-selector',
} as const;

export const patientEngagementPrefix = '/algorithms/patient-engagement/';

export type PatientEngagementPage = {
  /** Stable identifier that does not change with the product name. */
  id: string;
  key: string;
  segment: string;
  label: string;
  group: 'algorithm' | 'survey';
  href: string;
};

export function productSlug(productName: string): string {
  return productName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function page(key: string, label: string, group: PatientEngagementPage['group'], id: string = key): PatientEngagementPage {
  return { id, key, segment: key, label, group, href: `${patientEngagementPrefix}${key}` };
}

/** The 14 algorithm pages of seed-spec §2, in the spec's order; `{product}` is the product name in lower case. */
export function getAlgorithmPages(productName: string): PatientEngagementPage[] {
  return [
    page('data-sources', 'Data Integration Sources', 'algorithm'),
    page('national-healthcare-impact', 'National Healthcare Impact', 'algorithm'),
    page('personalised-message-flow', 'Personalised Message Flow', 'algorithm'),
    page(`${productSlug(productName)}-comparison`, `${productName} Comparison`, 'algorithm', 'product-comparison'),
    page('patient-profile', 'Patient Profile', 'algorithm'),
    page('whatsapp-analysis', 'WhatsApp Message Data Analysis', 'algorithm'),
    page('learning-journey', 'Algorithm Learning Journey', 'algorithm'),
    page('learning-visualization', 'Algorithm Learning Visualization', 'algorithm'),
    page('message-data-collection', 'Message Data Collection', 'algorithm'),
    page('patient-outcomes', 'Patient Outcomes with Universal Health Impact', 'algorithm'),
    page('messaging-overview', 'Patient Messaging System - Overview', 'algorithm'),
    page('neural-network-effect', 'Neural Network Effect Analysis', 'algorithm'),
    page('compliance-journey', '12-Month Compliance Journey', 'algorithm'),
    page('persona-based-message-examples', 'Persona-Based Message Examples', 'algorithm'),
  ];
}

/** The 3 survey pages of seed-spec §2. */
export function getSurveyPages(): PatientEngagementPage[] {
  return [
    page('survey-evolution', 'Patient Micro-Survey Evolution', 'survey'),
    page('lifestyle-surveys', 'Lifestyle Micro-Surveys', 'survey'),
    page('adherence-optimization', 'Medication Adherence Optimisation System', 'survey'),
  ];
}

export function getPatientEngagementPages(productName: string): PatientEngagementPage[] {
  return [...getAlgorithmPages(productName), ...getSurveyPages()];
}

export function findPatientEngagementPage(productName: string, segment: string): PatientEngagementPage | undefined {
  return getPatientEngagementPages(productName).find((candidate) => candidate.segment === segment);
}

/** Seed-spec §2: the page whose path contains /manufacturing uses a full-width top bar. */
export function usesFullWidthTopBar(pathname: string): boolean {
  return pathname.includes('/manufacturing');
}

/** Set by src/proxy.ts on every page request: the path and query that were asked for. */
export const requestedPathHeader = 'x-medaptive-requested-path';
