import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState, type ReactNode } from 'react';
import { AVATAR_MAX_BYTES } from '../../shared/domain/images';

type Upload = { state: 'idle' } | { state: 'uploading'; percent: number } | { state: 'failed'; message: string };

/** PUT with XMLHttpRequest: fetch cannot report upload progress, and the user waits on this bar. */
export function putWithProgress(url: string, file: File, onProgress: (percent: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.withCredentials = true;
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let message = `HTTP ${xhr.status}`;
      try {
        message = JSON.parse(xhr.responseText).error ?? message;
      } catch {
        // not JSON: keep the status
      }
      reject(new Error(message));
    };
    xhr.onerror = () => reject(new Error('network'));
    xhr.send(file);
  });
}

/**
 * Picks an image and sends it to `url` with a progress bar; refusals (not an image, too large,
 * no permission) show under the button. `preview` is what the image looks like now.
 */
/** The types the server accepts (it checks the bytes too); SVG is refused: it can carry scripts. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

export function ImageUpload(props: { url: string; preview: ReactNode; pickLabel: string; progressLabel: string; onUploaded: () => void | Promise<void> }) {
  const { t } = useLingui();
  const input = useRef<HTMLInputElement>(null);
  const [upload, setUpload] = useState<Upload>({ state: 'idle' });
  const messages: Record<string, string> = {
    'The file must be an image (PNG, JPEG, GIF or WebP)': t`The file must be an image (PNG, JPEG, GIF or WebP)`,
    'The image is too large (at most 5 MB)': t`The image is too large (at most 5 MB)`,
    network: t`The connection failed. Check your network and try again.`,
  };
  const fail = (raw: string) => setUpload({ state: 'failed', message: messages[raw] ?? raw });

  async function send(file: File) {
    if (!IMAGE_TYPES.includes(file.type)) return fail('The file must be an image (PNG, JPEG, GIF or WebP)');
    if (file.size > AVATAR_MAX_BYTES) return fail('The image is too large (at most 5 MB)');
    setUpload({ state: 'uploading', percent: 0 });
    try {
      await putWithProgress(props.url, file, (percent) => setUpload({ state: 'uploading', percent }));
      setUpload({ state: 'idle' });
      await props.onUploaded();
    } catch (err) {
      fail(err instanceof Error ? err.message : String(err));
    }
  }

  return (
    <div className="image-upload">
      {props.preview}
      <div>
        <input
          ref={input}
          type="file"
          accept={IMAGE_TYPES.join(',')}
          aria-label={props.pickLabel}
          hidden
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void send(file);
          }}
        />
        <button type="button" className="button button-secondary" disabled={upload.state === 'uploading'} onClick={() => input.current?.click()}>
          <Trans>Change image</Trans>
        </button>
        {upload.state === 'uploading' && (
          <progress className="upload-progress" max={100} value={upload.percent} aria-label={props.progressLabel}>
            {upload.percent}%
          </progress>
        )}
        {upload.state === 'failed' && (
          <p className="form-error" role="alert">
            {upload.message}
          </p>
        )}
      </div>
    </div>
  );
}
