import { CHAT_MESSAGES } from './chat';

/** Texts of customer service (spec 5 and the error catalogue, verbatim where it has one). */
export const SERVICE_MESSAGES = {
  requestNotFound: 'Solicitação não econtrada', // sic: the spec's spelling
  alreadyTaken: 'Solicitação já foi atendida',
  /** The prompt anonymous visitors answer before they can start. */
  nameRequired: 'Para iniciar informe seu nome:',
  transferred: 'O Atendimento foi transferido com sucesso!',
  conversationNotFound: CHAT_MESSAGES.notFound,
  notParticipant: CHAT_MESSAGES.notParticipant,
  removed: CHAT_MESSAGES.removed,
  blocked: CHAT_MESSAGES.blocked,
  queueNotFound: 'Queue not found',
  queueDisabled: 'This queue is not taking requests at the moment',
  notTakingRequests: 'This company is not taking requests at the moment',
  contactUsBlocked: 'Contact Us is not available at the moment',
  notAService: 'This conversation is not a service request',
  wrongState: 'This service is not in a state that allows this',
  notAllowed: 'Only the person responsible for this service can do this',
  neverTaken: 'Only a service that was taken can be reopened',
  changed: 'This service was changed by someone else. Reload it and try again.',
  concluded: 'This service is concluded: start a new one',
  // The spec's customer-area texts (calls-errors-constants §8): a person named who is not an
  // active member of this company, and a request link opened by someone who is not in it.
  attendantNotFound: 'User not found in domain',
  invalidAccess: 'Invalid Access',
  transferToSelf: 'You are already responsible for this service',
  slaAlreadyOpen: 'A proposal is already waiting for the customer’s answer',
  slaInThePast: 'The proposed date must be in the future',
  slaNotOpen: 'There is no proposal waiting for an answer',
  notRateable: 'Only a concluded service that someone served can be rated',
  alreadyRated: 'This service was already rated',
  companyNotLinked: 'This company is not one of your client or network companies',
  entryNotFound: 'Time entry not found',
  invalidForm: 'Check the highlighted fields',
} as const;
