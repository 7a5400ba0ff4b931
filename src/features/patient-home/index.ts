export { getPatientHome } from './server/get-patient-home';
export type { PatientHome, TodayDose } from './patient-home-dto';
export { recordDoseAnswer } from './server/record-dose-answer';
export { undoDoseAnswer } from './server/undo-dose-answer';
export { PatientHomePage } from './components/patient-home-page';
