import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';
import { AVATAR_MAX_BYTES } from '../../../shared/domain/images';
import { trpc } from '../../trpc';

type Upload = { state: 'idle' } | { state: 'uploading'; percent: number } | { state: 'failed'; message: string };

/** PUT with XMLHttpRequest: fetch cannot report upload progress, and the user waits on this bar. */
function putWithProgress(url: string, file: File, onProgress: (percent: number) => void): Promise<void> {
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

export function AvatarUpload({ userId, name, hasAvatar }: { userId: string; name: string; hasAvatar: boolean }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const input = useRef<HTMLInputElement>(null);
  const [upload, setUpload] = useState<Upload>({ state: 'idle' });
  const [version, setVersion] = useState(0);
  const serverMessages: Record<string, string> = {
    'The file must be an image (PNG, JPEG, GIF or WebP)': t`The file must be an image (PNG, JPEG, GIF or WebP)`,
    'The image is too large (at most 5 MB)': t`The image is too large (at most 5 MB)`,
    network: t`The connection failed. Check your network and try again.`,
  };

  async function send(file: File) {
    if (!file.type.startsWith('image/')) return setUpload({ state: 'failed', message: serverMessages['The file must be an image (PNG, JPEG, GIF or WebP)']! });
    if (file.size > AVATAR_MAX_BYTES) return setUpload({ state: 'failed', message: serverMessages['The image is too large (at most 5 MB)']! });
    setUpload({ state: 'uploading', percent: 0 });
    try {
      await putWithProgress('/uploads/avatar', file, (percent) => setUpload({ state: 'uploading', percent }));
      setUpload({ state: 'idle' });
      setVersion((v) => v + 1);
      await utils.auth.me.invalidate();
    } catch (err) {
      const raw = err instanceof Error ? err.message : String(err);
      setUpload({ state: 'failed', message: serverMessages[raw] ?? raw });
    }
  }

  const initials = name.trim().split(/\s+/).slice(0, 2).map((w) => w[0]?.toUpperCase()).join('') || '?';
  return (
    <div className="avatar-upload">
      {hasAvatar || version > 0 ? (
        <img className="avatar-large" src={`/avatars/${userId}?v=${version}`} alt={t`Your photo`} />
      ) : (
        <span className="avatar-large avatar-initials" aria-hidden="true">
          {initials}
        </span>
      )}
      <div>
        <input
          ref={input}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          aria-label={t`Choose a photo`}
          hidden
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void send(file);
          }}
        />
        <button type="button" className="button button-secondary" disabled={upload.state === 'uploading'} onClick={() => input.current?.click()}>
          <Trans>Change photo</Trans>
        </button>
        {upload.state === 'uploading' && (
          <progress className="upload-progress" max={100} value={upload.percent} aria-label={t`Uploading photo`}>
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
