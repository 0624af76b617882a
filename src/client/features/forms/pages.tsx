/** The forms area's screens (routes.tsx): the builder, the filled forms on both sides, the print page. */
export { BuilderPage as FormPage } from './Builder';
export { CustomerFormPage as FormAnswersPage, ConversationFormPage, ConversationFormPrintPage } from './FilledFormPages';
