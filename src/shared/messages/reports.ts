export const REPORT_MESSAGES = {
  range: 'The end of the period comes before its start, or the period is longer than a year',
} as const;
