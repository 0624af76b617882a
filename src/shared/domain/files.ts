/**
 * Files, images and voice messages sent in a conversation: names, kinds recognised by their bytes,
 * and storage keys ({domain}/{conversationId}/{messageId}/{filename}, spec 7.5).
 */
import { detectImageType } from './images';

/** A thumbnail the browser drew on a canvas: small, and an image by its bytes. */
export const THUMB_MAX_BYTES = 64 * 1024;
export const THUMB_FILE_NAME = '.thumb';
/** How long a download link stays valid. */
export const FILE_LINK_SECONDS = 300;

/**
 * The refusal of a file over the upload limit — the server's text, which the browser also shows
 * before sending a byte (it learns the limit from `chat.uploadLimits`).
 */
export const fileTooLargeText = (maxBytes: number) => `The file is too large (at most ${Math.floor(maxBytes / 1_048_576)} MB)`;
const NAME_MAX_BYTES = 150;

/**
 * A file name safe as one segment of a storage key and as a download name: no path, no control
 * or reserved characters, no leading dots (so never '.', '..' or our '.thumb'), at most 150 bytes
 * of UTF-8 keeping the extension. Never empty.
 */
export function sanitizeFileName(raw: string): string {
  const base = raw.normalize('NFC').split(/[\\/]/).pop() ?? '';
  let name = base
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+/, '')
    .replace(/[\s.]+$/, '');
  if (byteLength(name) > NAME_MAX_BYTES) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    let stem = name.slice(0, name.length - ext.length);
    while (stem && byteLength(stem + ext) > NAME_MAX_BYTES) stem = Array.from(stem).slice(0, -1).join('');
    name = stem.replace(/[\s.]+$/, '') + ext;
  }
  return name || 'file';
}

const byteLength = (s: string) => new TextEncoder().encode(s).length;

export const fileKey = (domain: string, conversationId: string, messageId: string, fileName: string) =>
  `${domain}/${conversationId}/${messageId}/${fileName}`;
export const thumbKey = (domain: string, conversationId: string, messageId: string) =>
  `${domain}/${conversationId}/${messageId}/${THUMB_FILE_NAME}`;

/** Audio a browser's MediaRecorder produces (WebM/Opus, Ogg, MP4), plus MP3 and WAV. */
export function detectAudioType(head: Uint8Array): string | null {
  const at = (offset: number, bytes: number[]) => bytes.every((b, i) => head[offset + i] === b);
  if (at(0, [0x1a, 0x45, 0xdf, 0xa3])) return 'audio/webm';
  if (at(0, [0x4f, 0x67, 0x67, 0x53])) return 'audio/ogg';
  if (at(4, [0x66, 0x74, 0x79, 0x70])) return 'audio/mp4';
  if (at(0, [0x49, 0x44, 0x33]) || (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0)) return 'audio/mpeg';
  if (at(0, [0x52, 0x49, 0x46, 0x46]) && at(8, [0x57, 0x41, 0x56, 0x45])) return 'audio/wav';
  return null;
}

/** An image is recognised by its bytes (never by the declared type): then it is a 'imagem' message. */
export const detectChatImage = (head: Uint8Array) => detectImageType(head);

/** The declared type of a plain file, kept only when it looks like a MIME type. */
export function cleanMime(declared: string | undefined): string {
  const mime = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/.test(mime) ? mime : 'application/octet-stream';
}
