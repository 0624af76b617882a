/** Image types we accept for avatars and company images, recognised by their first bytes. */
const SIGNATURES: { type: string; bytes: (number | null)[] }[] = [
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/gif', bytes: [0x47, 0x49, 0x46, 0x38] },
  // RIFF....WEBP
  { type: 'image/webp', bytes: [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50] },
];

/** The image type of these bytes, or null: the declared Content-Type is never trusted alone. */
export function detectImageType(head: Uint8Array): string | null {
  const match = SIGNATURES.find((s) => s.bytes.every((b, i) => b === null || head[i] === b));
  return match?.type ?? null;
}

export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
export const NOT_AN_IMAGE = 'The file must be an image (PNG, JPEG, GIF or WebP)';
