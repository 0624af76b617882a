/**
 * The texts the server answers when a limit is reached or an input cannot be stored; the browser
 * translates them (client/guard/serverMessages.ts). The limits themselves are config (README).
 */
/** A JSON request body over MAX_REQUEST_BYTES (413). */
export const REQUEST_TOO_LARGE_MESSAGE = 'The request is too large: send less at once (files go through the upload button)';
/** A string with U+0000 or a lone surrogate, prefixed by the input field's path (400). */
export const UNSTORABLE_TEXT_MESSAGE = 'Text contains a character that cannot be stored (U+0000 or half of a surrogate pair)';
