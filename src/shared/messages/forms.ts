import { TEMPLATE_LOSS_MESSAGES } from '../domain/forms-access';

/** Texts the forms module answers with (the spec's where it has one); the client translates them. */
export const FORM_MESSAGES = {
  nameTaken: 'A form with this name already exists',
  nameRequired: 'Give the form a name',
  templateNotFound: 'Form not found',
  madePrivate: TEMPLATE_LOSS_MESSAGES.private,
  deleted: TEMPLATE_LOSS_MESSAGES.deleted,
  notEditor: 'Only the creator, the editors it names and administrators can change this form',
  notExporter: 'Only the creator, the editors it names and administrators can export this form',
  notCreator: 'Only the creator can make this form private or public',
  notEditorsChange: 'Only the creator and administrators choose who may edit this form',
  memberNotFound: 'Member not found',
  notRemover: 'Only the creator or an administrator can delete this form',
  notAllowedToUse: 'You may not use this form; an administrator chooses which forms each member uses',
  formNotFound: 'Filled form not found',
  alreadySubmitted: 'This form was already submitted',
  notYours: 'This form is being filled in by someone else',
  invalidForm: 'Check the highlighted fields',
  notDraft: 'Only a form that was not submitted yet can be discarded',
  fieldNotFound: 'This form has no such field',
  notAFileField: 'This field does not take a file',
  noCustomer: 'Nobody in this conversation can fill in a form from the customer side',
  badTemplate: 'The form has problems: check the fields',
  notAnImage: 'This field takes an image',
  editorsMembers: 'Editors must be active members of the company',
} as const;
