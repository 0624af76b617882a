import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState, type FormEvent } from 'react';
import { FEED_ATTACHMENTS_MAX, FEED_TEXT_MAX, type FeedAudience } from '../../../shared/domain/feeds';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { FormError } from '../../ui/Form';
import { putFile } from './upload';

interface Pending {
  key: number;
  name: string;
  progress: number;
  id?: string;
  error?: string;
}
let nextKey = 0;

/** Writing a post: text, where it goes, whether it is also public, and images or files (uploaded as they are chosen). */
export function Composer({ domain, defaultAudience }: { domain: string; defaultAudience: FeedAudience }) {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const [text, setText] = useState('');
  const [audience, setAudience] = useState<FeedAudience>(defaultAudience);
  const [isPublic, setIsPublic] = useState(false);
  const [files, setFiles] = useState<Pending[]>([]);
  const input = useRef<HTMLInputElement>(null);
  const create = trpc.feeds.create.useMutation({
    onSuccess: async () => {
      setText('');
      setFiles([]);
      setIsPublic(false);
      await utils.feeds.list.invalidate();
    },
  });
  const uploading = files.some((f) => !f.id && !f.error);

  function choose(list: FileList | null) {
    for (const file of Array.from(list ?? []).slice(0, FEED_ATTACHMENTS_MAX - files.length)) {
      const key = ++nextKey;
      setFiles((all) => [...all, { key, name: file.name, progress: 0 }]);
      const update = (patch: Partial<Pending>) => setFiles((all) => all.map((f) => (f.key === key ? { ...f, ...patch } : f)));
      putFile<{ id: string }>(`/uploads/feed/${domain}?name=${encodeURIComponent(file.name)}`, file, (progress) => update({ progress }))
        .then((done) => update({ id: done.id, progress: 1 }))
        .catch((err: Error) => update({ error: serverMessage(err) ?? err.message }));
    }
    if (input.current) input.current.value = '';
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const attachmentIds = files.filter((f) => f.id).map((f) => f.id!);
    create.mutate({ domain, text, audience, isPublic, attachmentIds });
  }

  return (
    <form className="feed-composer" onSubmit={submit}>
      <label htmlFor="feed-text">
        <Trans>New post</Trans>
      </label>
      <textarea id="feed-text" rows={3} maxLength={FEED_TEXT_MAX} value={text} onChange={(e) => setText(e.target.value)} placeholder={t`Share news with your team`} />
      <div className="feed-composer-options">
        <label>
          <Trans>Post to</Trans>{' '}
          <select value={audience} onChange={(e) => setAudience(e.target.value as FeedAudience)}>
            <option value="_empresa_">{t`My company`}</option>
            <option value="_rede_">{t`My company and its client companies`}</option>
          </select>
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={isPublic} onChange={(e) => setIsPublic(e.target.checked)} />
          <span>
            <Trans>Also public on the company page</Trans>
          </span>
        </label>
        <label className="button button-secondary button-small feed-attach">
          <Trans>Add images or files</Trans>
          <input ref={input} type="file" multiple className="visually-hidden" onChange={(e) => choose(e.target.files)} />
        </label>
      </div>
      {files.length > 0 && (
        <ul className="feed-uploads">
          {files.map((f) => (
            <li key={f.key}>
              <span>{f.name}</span>
              {f.error ? (
                <span className="field-error">{f.error}</span>
              ) : (
                <progress max={1} value={f.progress} aria-label={t`Uploading ${f.name}`} />
              )}
              <button type="button" className="link-button" onClick={() => setFiles((all) => all.filter((x) => x.key !== f.key))} aria-label={t`Remove ${f.name}`}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <FormError message={serverMessage(create.error)} />
      <div className="form-actions">
        <button type="submit" className="button" disabled={create.isPending || uploading || (!text.trim() && !files.some((f) => f.id))}>
          <Trans>Post</Trans>
        </button>
      </div>
    </form>
  );
}
