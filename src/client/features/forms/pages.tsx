import { msg } from '@lingui/core/macro';
import { placeholderPage } from '../../ui/Placeholder';

/** /i/forma/:id */
export const FormPage = placeholderPage(msg`Form`);
/** /i/form/:id */
export const FormAnswersPage = placeholderPage(msg`Form answers`);
/** A form filled in within a conversation, and its printable version. */
export const ConversationFormPage = placeholderPage(msg`Conversation form`);
export const ConversationFormPrintPage = placeholderPage(msg`Print form`);
