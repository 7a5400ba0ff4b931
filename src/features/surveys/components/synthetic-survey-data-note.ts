/** How the demo's synthetic survey responses were made (decisions 041 and 067), where a page counts them. */
export const syntheticSurveyDataNote =
  ' Includes synthetic demo data (simulated patients: barrier answers drawn from their persona with noise, lifestyle answers from one simulated adult population).';
