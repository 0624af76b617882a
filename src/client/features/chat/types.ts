import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/router';

type Outputs = inferRouterOutputs<AppRouter>['chat'];

/** One page of `chat.recents`: items, the next page's cursor, the unread total of the company. */
export type RecentsPage = Outputs['recents'];
/** One entry of the recent-chats list. */
export type Recent = RecentsPage['items'][number];
/** What `chat.conversation` answers: the conversation, its participants, my draft and watermarks. */
export type Conversation = Outputs['conversation'];
export type Participant = Conversation['participants'][number];
