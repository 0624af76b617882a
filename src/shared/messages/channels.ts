/** Texts of the channels' settings (no spec text covers them). */
export const CHANNEL_MESSAGES = {
  notConfigured: 'This channel is not set up yet',
  refused: 'The provider refused the connection',
  queueNotFound: 'Queue not found',
  credentialsRequired: 'Fill in the credentials',
  notFound: 'Domain not found',
  integrationNotFound: 'integration URL not found',
  onlySingle: 'Only a single conversation can be integrated with e-mail',
  concluded: 'This conversation is concluded',
} as const;
