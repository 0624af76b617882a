import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { REPLY_MESSAGES as M } from '../../../shared/messages/replies';

/** The saved replies' answers, for guard/serverMessages.ts (the one place server texts are translated). */
export const REPLY_SERVER_TEXTS: Record<string, MessageDescriptor> = {
  [M.notFound]: msg`Saved reply not found`,
  [M.shortcutTaken]: msg`A saved reply with this shortcut already exists`,
  [M.badShortcut]: msg`A shortcut has 1 to 30 lowercase letters, digits, "-" or "_"`,
  [`shortcut: ${M.badShortcut}`]: msg`A shortcut has 1 to 30 lowercase letters, digits, "-" or "_"`,
  [M.textRequired]: msg`Write the text of the reply`,
  [`text: ${M.textRequired}`]: msg`Write the text of the reply`,
  [M.tooMany]: msg`A company has at most 500 saved replies`,
};
