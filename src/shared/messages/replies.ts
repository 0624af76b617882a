export const REPLY_MESSAGES = {
  notFound: 'Saved reply not found',
  shortcutTaken: 'A saved reply with this shortcut already exists',
  badShortcut: 'A shortcut has 1 to 30 lowercase letters, digits, "-" or "_"',
  textRequired: 'Write the text of the reply',
  tooMany: 'A company has at most 500 saved replies',
} as const;
