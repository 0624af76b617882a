/** Texts of the company area (spec 5 and the error catalogue); the client translates them. */
export const COMPANY_MESSAGES = {
  domainUnavailable: 'Domain unavailable',
  nameUnavailable: 'Name unavailable',
  domainNotFound: 'Domain not found',
  fillAllFields: 'Fill in all fields',
  profileInUse: 'You cannot delete this profile as it is in use!',
  mailSent: 'E-mail enviado para {email}',
  mailFailed: 'Não foi possivel enviar o e-mail para {email}',
} as const;
