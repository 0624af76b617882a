import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/router';
import { FEED_REACTIONS, FEED_TEXT_MAX } from '../../../shared/domain/feeds';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { FormError } from '../../ui/Form';
import { LinkedText } from './RichText';

export type FeedPost = inferRouterOutputs<AppRouter>['feeds']['list']['items'][number];
type Attachment = FeedPost['attachments'][number];

/** A post's images (in a grid, each a link to its full size) and files (download links). */
export function Attachments({ files }: { files: Attachment[] }) {
  const images = files.filter((f) => f.isImage);
  const others = files.filter((f) => !f.isImage);
  return (
    <>
      {images.length > 0 && (
        <div className="feed-images">
          {images.map((f) => (
            <a key={f.id} href={f.url} target="_blank" rel="noopener noreferrer">
              <img src={f.url} alt={f.name} loading="lazy" />
            </a>
          ))}
        </div>
      )}
      {others.length > 0 && (
        <ul className="feed-files">
          {others.map((f) => (
            <li key={f.id}>
              <a href={f.url} download={f.name}>
                {f.name}
              </a>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** One post as the feed shows it: author, when, where it went, text with links, files, reactions, and changes. */
export function PostCard({ post, domain, onRemoved, full }: { post: FeedPost; domain: string; onRemoved?: () => void; full?: boolean }) {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const refresh = () => Promise.all([utils.feeds.list.invalidate(), utils.feeds.post.invalidate({ domain, postId: post.id })]);
  const react = trpc.feeds.react.useMutation({ onSuccess: refresh });
  const edit = trpc.feeds.edit.useMutation({ onSuccess: async () => (await refresh(), setEditing(null)) });
  const remove = trpc.feeds.remove.useMutation({ onSuccess: async () => (await refresh(), onRemoved?.()) });
  const [editing, setEditing] = useState<{ text: string; isPublic: boolean } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const author = post.authorName ?? t`Former member`;

  return (
    <article className="feed-post" aria-label={t`Post by ${author}`}>
      <header className="feed-post-header">
        <strong>{author}</strong>
        {post.fromNetwork && <span className="muted">{post.company.name}</span>}
        <time className="muted" dateTime={new Date(post.createdAt).toISOString()}>
          {i18n.date(new Date(post.createdAt), { dateStyle: 'short', timeStyle: 'short' })}
        </time>
        {post.editedAt && (
          <span className="muted">
            <Trans>(edited)</Trans>
          </span>
        )}
        <span className="badge">{post.audience === '_rede_' ? t`Network` : t`Company`}</span>
        {post.isPublic && (
          <Link className="badge badge-ok" to={`/${post.company.domain}/feeds/${post.id}`}>
            <Trans>Public</Trans>
          </Link>
        )}
      </header>
      {editing ? (
        <form
          className="feed-edit"
          onSubmit={(e) => {
            e.preventDefault();
            edit.mutate({ domain, postId: post.id, text: editing.text, isPublic: editing.isPublic });
          }}
        >
          <label className="visually-hidden" htmlFor={`edit-${post.id}`}>
            <Trans>Text of the post</Trans>
          </label>
          <textarea id={`edit-${post.id}`} rows={4} maxLength={FEED_TEXT_MAX} value={editing.text} onChange={(e) => setEditing({ ...editing, text: e.target.value })} />
          <label className="checkbox">
            <input type="checkbox" checked={editing.isPublic} onChange={(e) => setEditing({ ...editing, isPublic: e.target.checked })} />
            <span>
              <Trans>Also public on the company page</Trans>
            </span>
          </label>
          <FormError message={serverMessage(edit.error)} />
          <div className="form-actions">
            <button type="submit" className="button" disabled={edit.isPending}>
              <Trans>Save</Trans>
            </button>
            <button type="button" className="button button-secondary" onClick={() => setEditing(null)}>
              <Trans>Cancel</Trans>
            </button>
          </div>
        </form>
      ) : (
        post.text && (
          <p className="feed-text">
            <LinkedText text={post.text} />
          </p>
        )
      )}
      <Attachments files={post.attachments} />
      <footer className="feed-post-footer">
        <div className="feed-reactions" role="group" aria-label={t`Reactions`}>
          {FEED_REACTIONS.map((emoji) => {
            const r = post.reactions.find((x) => x.emoji === emoji);
            return (
              <button
                key={emoji}
                type="button"
                className={r?.mine ? 'feed-reaction mine' : 'feed-reaction'}
                aria-pressed={!!r?.mine}
                disabled={react.isPending}
                onClick={() => react.mutate({ domain, postId: post.id, emoji })}
              >
                {emoji}
                {r ? <span className="feed-reaction-count">{r.count}</span> : null}
              </button>
            );
          })}
        </div>
        {!full && (
          <Link to={`/i/recent/feed/${post.id}`}>
            <Trans>{post.commentCount} comments</Trans>
          </Link>
        )}
        {post.canChange && !editing && (
          <span className="feed-post-actions">
            <button type="button" className="button button-secondary button-small" onClick={() => setEditing({ text: post.text, isPublic: post.isPublic })}>
              <Trans>Edit</Trans>
            </button>
            <button type="button" className="button button-secondary button-small" onClick={() => setConfirming(true)}>
              <Trans>Remove</Trans>
            </button>
          </span>
        )}
      </footer>
      <FormError message={serverMessage(react.error)} />
      {confirming && (
        <ConfirmDialog
          title={t`Remove this post?`}
          confirmLabel={t`Remove`}
          danger
          pending={remove.isPending}
          error={serverMessage(remove.error)}
          onConfirm={() => remove.mutate({ domain, postId: post.id })}
          onCancel={() => setConfirming(false)}
        >
          <p>
            <Trans>Its comments, reactions, images and files go with it.</Trans>
          </p>
        </ConfirmDialog>
      )}
    </article>
  );
}
