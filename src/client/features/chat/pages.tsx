/**
 * The conversation screens, one chunk loaded after the recent list (features/recent/pages.tsx
 * wraps each export in React.lazy): the conversation, its panels, the message details page and
 * starting a new chat.
 */

export { AddParticipantsPage } from './AddParticipantsPanel';
export { ConversationPage } from './ConversationPage';
export { ConversationDetailsPage } from './DetailsPanel';
export { MessageDetailsPage } from './MessageDetailsPage';
export { NewConversationPage, OptionsListPage } from './NewChat';
export { AnnotationsPage } from './NotesPanel';
export { ReplyPage } from './ReplyBar';
