import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { PLAN_FEATURE_MESSAGES } from '../../../shared/domain/company';
import type { FormFieldError, FormFieldType } from '../../../shared/domain/forms';
import { FORM_MESSAGES as M } from '../../../shared/messages/forms';

/** What each kind of field is called in the builder. */
export const FIELD_TYPE_LABELS: Record<FormFieldType, MessageDescriptor> = {
  shortText: msg`Short text`,
  longText: msg`Long text`,
  number: msg`Number`,
  date: msg`Date`,
  time: msg`Time`,
  singleChoice: msg`Single choice`,
  multipleChoice: msg`Multiple choice`,
  checkbox: msg`Checkbox`,
  email: msg`E-mail`,
  phone: msg`Phone`,
  file: msg`File`,
  image: msg`Image`,
  signature: msg`Signature`,
  heading: msg`Section heading`,
};

/** Why an answer was refused (the codes of shared/domain/forms.ts, in data.fieldErrors). */
export const FIELD_ERROR_TEXTS: Record<FormFieldError, MessageDescriptor> = {
  required: msg`Fill in this field`,
  email: msg`Invalid email`,
  tooShort: msg`Too short`,
  tooLong: msg`Too long`,
  notAnOption: msg`Choose one of the options`,
  invalid: msg`This answer is not valid`,
  notANumber: msg`Type a number`,
  tooSmall: msg`The number is too small`,
  tooLarge: msg`The number is too large`,
  notADate: msg`Type a valid date`,
  notATime: msg`Type a valid time`,
  notAPhone: msg`Type a valid phone number`,
  tooFewChoices: msg`Choose more options`,
  tooManyChoices: msg`Choose fewer options`,
  notAFile: msg`Attach a file`,
  notAnImage: msg`This field takes an image`,
};

/** The forms module's answers, for guard/serverMessages.ts (the one place server texts are translated). */
export const FORM_SERVER_TEXTS: Record<string, MessageDescriptor> = {
  [PLAN_FEATURE_MESSAGES.forms]: msg`Forms are not included in your plan. Ask an administrator to enable them.`,
  [M.nameTaken]: msg`A form with this name already exists`,
  [M.nameRequired]: msg`Give the form a name`,
  [`name: ${M.nameRequired}`]: msg`Give the form a name`,
  [M.templateNotFound]: msg`Form not found`,
  [M.madePrivate]: msg`The form you were accessing was made private by its creator!`,
  [M.deleted]: msg`The form you were on was deleted!`,
  [M.notEditor]: msg`Only the creator, the editors it names and administrators can change this form`,
  [M.notExporter]: msg`Only the creator, the editors it names and administrators can export this form`,
  [M.notCreator]: msg`Only the creator can make this form private or public`,
  [M.notEditorsChange]: msg`Only the creator and administrators choose who may edit this form`,
  [M.memberNotFound]: msg`Member not found`,
  [M.notRemover]: msg`Only the creator or an administrator can delete this form`,
  [M.notAllowedToUse]: msg`You may not use this form; an administrator chooses which forms each member uses`,
  [M.formNotFound]: msg`Filled form not found`,
  [M.alreadySubmitted]: msg`This form was already submitted`,
  [M.notYours]: msg`This form is being filled in by someone else`,
  [M.invalidForm]: msg`Check the highlighted fields`,
  [M.notDraft]: msg`Only a form that was not submitted yet can be discarded`,
  [M.fieldNotFound]: msg`This form has no such field`,
  [M.notAFileField]: msg`This field does not take a file`,
  [M.noCustomer]: msg`Nobody in this conversation can fill in a form from the customer side`,
  [M.badTemplate]: msg`The form has problems: check the fields`,
  [M.notAnImage]: msg`This field takes an image`,
  [M.editorsMembers]: msg`Editors must be active members of the company`,
};
