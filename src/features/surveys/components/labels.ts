export const ipaqMeaning: Record<string, string> = {
  low: 'Low: less than the IPAQ’s “moderate” level (for example 30 minutes of walking on 5 days a week). Any extra activity helps.',
  moderate: 'Moderate: about half an hour of at least moderate activity, walking included, on most days.',
  high: 'High: about an hour or more of at least moderate activity a day, or vigorous activity on 3 or more days.',
};

export const surveyTitles: Record<string, string> = {
  lifestyle: 'Lifestyle',
  'adherence-barriers': 'What gets in the way of your medicines',
};
