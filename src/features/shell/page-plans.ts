/**
 * What each page will show once its engine is built (DESIGN.md §2). Shown on the page until then, so a
 * visitor learns what is coming instead of seeing invented figures.
 */
export const pagePlans: Record<string, string> = {
  'data-sources':
    'The connected data sources (FHIR, pharmacy dispensing files, the dose-event API, WhatsApp and SMS) with their status, volume and last activity, and the importers with live progress and error reports.',
  'national-healthcare-impact':
    'Hospitalisations, deaths and costs avoided nationally by better adherence, by condition, with low and high scenarios and every parameter sourced.',
  'patient-profile':
    'One patient’s regimen, a calendar of doses, the PDC trend, messages, survey answers and risk score — your own, your patients’ if you are a clinician, otherwise a de-identified example.',
  'whatsapp-analysis':
    'Reply rates, time to reply, an hour-by-weekday heatmap, reply intents, template performance and opt-outs, also for an uploaded chat export.',
  'message-data-collection': 'What is collected with each message and why (consent), a live feed, data quality and a CSV export.',
  'patient-outcomes': 'The clinical outcomes expected from better adherence — events avoided per 1,000 patients — by group.',
  'messaging-overview': 'Message volumes, channels, delivery, read and failure rates, and the active schedules.',
  'neural-network-effect':
    'The non-adherence risk model: its discrimination and calibration against simpler baselines, and the gain from targeting messages by risk.',
  'compliance-journey': 'Twelve-month journeys: monthly PDC and persistence by persona, and individual trajectories for the care team.',
  'persona-based-message-examples': 'The message template library by persona and category, rendered as the patient sees it.',
  'survey-evolution': 'How the micro-surveys adapt: versions, response rates and the information each question adds.',
  'lifestyle-surveys': 'Short lifestyle surveys (activity, sleep, alcohol, smoking, diet, stress): take one and see the results.',
  login:
    'Sign-in by e-mail and password, by an OpenID Connect provider (popup or redirect) and by phone with an SMS code, with two-factor authentication.',
  profile: 'Your profile document: name, phone, time zone, language and role.',
  settings: 'Security settings: password, phone number, two-factor enrolment and withdrawal, backup codes and active sessions.',
  'manufacturing-portal':
    'For drug manufacturers, adherence to each of your products: PDC distribution, persistence curves, refill gaps and a demand forecast; for government officials, the same across all companies by condition and region.',
  'drug-company-selector': 'Choose which of your companies the portal shows.',
};
