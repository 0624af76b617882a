export const NOTE_MESSAGES = {
  notFound: 'Note not found',
  onlyOwner: 'Only the owner of the note can do this',
  readOnly: 'This note was shared with you to read only',
  notColleague: 'You can only share with active members of this company',
  attachmentNotFound: 'File not found',
} as const;
