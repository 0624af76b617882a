import { Trans, useLingui } from '@lingui/react/macro';
import { useChat, useTranslateError, useUploads } from './ChatProvider';
import { duration, fileSize } from './format';
import { Icon } from './icons';

/**
 * The files on their way to this conversation, above the composer: a progress bar each with
 * Cancel; a refusal (too large, no space left) says why, with Try again and Remove.
 */
export function UploadList({ conversationId }: { conversationId: string }) {
  const { t, i18n } = useLingui();
  const { uploads } = useChat();
  const translate = useTranslateError();
  const list = useUploads(conversationId);
  if (list.length === 0) return null;
  return (
    <ul className="upload-list" aria-label={t`Files being sent`}>
      {list.map((u) => {
        const length = u.recording ? duration(u.recording.durationMs) : '';
        const label = u.recording ? t`Voice message ${length}` : u.name;
        const reason = u.error === 'network' ? t`The connection failed. Check your network and try again.` : u.error ? translate(u.error) : '';
        return (
          <li key={u.id} className={u.state === 'failed' ? 'upload failed' : 'upload'}>
            <Icon name={u.recording ? 'mic' : u.isImage ? 'image' : 'file'} />
            <span className="upload-info">
              <span className="file-name">{label}</span>
              {u.state === 'uploading' ? (
                <span className="upload-progress-row">
                  <progress max={100} value={u.percent} aria-label={t`Sending ${label}`}>
                    {u.percent}%
                  </progress>
                  <span className="muted">
                    {u.percent}% · {fileSize(u.size, i18n.locale)}
                  </span>
                </span>
              ) : (
                <span className="form-error upload-error" role="alert">
                  {reason}
                </span>
              )}
            </span>
            {u.state === 'failed' && (
              <button type="button" className="link-button" onClick={() => uploads.retry(u.id)}>
                <Trans>Try again</Trans>
              </button>
            )}
            <button
              type="button"
              className="icon-button"
              onClick={() => uploads.cancel(u.id)}
              aria-label={u.state === 'uploading' ? t`Cancel sending ${label}` : t`Remove ${label}`}
              title={u.state === 'uploading' ? t`Cancel` : t`Remove`}
            >
              <Icon name="close" />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
