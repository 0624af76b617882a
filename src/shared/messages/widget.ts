export const WIDGET_MESSAGES = {
  badColor: 'The colour must be a hex colour such as #1f5fbf',
} as const;
