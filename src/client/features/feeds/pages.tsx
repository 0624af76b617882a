/**
 * Feeds: the company's feed (/i/recent/feeds/{all|_empresa_|_rede_}), one post with its comments
 * (/i/recent/feed/{id}) and a post published publicly on the company's site (/{emp}/feeds/{feedId}).
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { Link, NavLink, useNavigate, useParams } from 'react-router-dom';
import { FEED_AUDIENCES, FEED_COMMENT_MAX, type FeedAudience } from '../../../shared/domain/feeds';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { FormError } from '../../ui/Form';
import { PageTitle } from '../../ui/PageTitle';
import { Spinner } from '../../ui/Spinner';
import { MemberScreen } from '../service/MemberScreen';
import { useSocketEvent } from '../service/live';
import { Composer } from './Composer';
import { Attachments, PostCard } from './PostCard';
import { LinkedText } from './RichText';

/** /i/recent/feeds/:id (the feed; id chooses the audience) and the public /:emp/feeds/:feedId. */
export function FeedPage() {
  const { emp } = useParams();
  return emp ? <PublicPostPage /> : <FeedListPage />;
}

function FeedListPage() {
  const { t } = useLingui();
  const { id } = useParams();
  const audience = FEED_AUDIENCES.includes(id as FeedAudience) ? (id as FeedAudience) : undefined;
  return (
    <MemberScreen title={t`Feed`} className="feed-page">
      {(company) => <Feed key={`${company.domain}-${audience}`} domain={company.domain} audience={audience} />}
    </MemberScreen>
  );
}

function Feed({ domain, audience }: { domain: string; audience?: FeedAudience }) {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const list = trpc.feeds.list.useInfiniteQuery({ domain, audience, limit: 20 }, { getNextPageParam: (last) => last.nextCursor ?? undefined });
  const markSeen = trpc.feeds.markSeen.useMutation({ onSuccess: () => utils.feeds.unread.invalidate() });
  const newest = list.data?.pages[0]?.items[0]?.id;
  // What is on the screen is seen: the shell's badge clears, here and in the other tabs.
  useEffect(() => {
    if (list.isSuccess) markSeen.mutate({ domain });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [domain, newest, list.isSuccess]);
  const refresh = () => void utils.feeds.list.invalidate();
  useSocketEvent('feed:changed', refresh, refresh);
  const posts = list.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <>
      <nav className="feed-tabs" aria-label={t`Which posts`}>
        <NavLink to="/i/recent/feeds/all" end className={() => (audience ? 'section-link' : 'section-link active')}>
          <Trans>All</Trans>
        </NavLink>
        <NavLink to="/i/recent/feeds/_empresa_" className={({ isActive }) => (isActive ? 'section-link active' : 'section-link')}>
          <Trans>Company</Trans>
        </NavLink>
        <NavLink to="/i/recent/feeds/_rede_" className={({ isActive }) => (isActive ? 'section-link active' : 'section-link')}>
          <Trans>Network</Trans>
        </NavLink>
      </nav>
      <Composer domain={domain} defaultAudience={audience ?? '_empresa_'} />
      {list.isPending && <Spinner />}
      {list.isError && <FormError message={serverMessage(list.error)} />}
      {list.isSuccess && posts.length === 0 && (
        <p className="empty-state muted">
          <Trans>No posts yet. Write the first one.</Trans>
        </p>
      )}
      <div className="feed-list" aria-live="polite">
        {posts.map((post) => (
          <PostCard key={post.id} post={post} domain={domain} />
        ))}
      </div>
      {list.hasNextPage && (
        <button type="button" className="button button-secondary" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          <Trans>Older posts</Trans>
        </button>
      )}
    </>
  );
}

/** /i/recent/feed/:id — one post with its comments. */
export function PostPage() {
  const { t } = useLingui();
  return <MemberScreen title={t`Post`} className="feed-page">{(company) => <Post domain={company.domain} />}</MemberScreen>;
}

function Post({ domain }: { domain: string }) {
  const { t, i18n } = useLingui();
  const postId = useParams().id ?? '';
  const navigate = useNavigate();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const post = trpc.feeds.post.useQuery({ domain, postId }, { retry: false });
  const refresh = () => void utils.feeds.post.invalidate({ domain, postId });
  useSocketEvent('feed:changed', (e) => (e.postId === postId ? refresh() : undefined), refresh);
  const [text, setText] = useState('');
  const comment = trpc.feeds.comment.useMutation({ onSuccess: () => (setText(''), refresh()) });
  const removeComment = trpc.feeds.removeComment.useMutation({ onSuccess: refresh });
  const [editing, setEditing] = useState<{ id: string; text: string } | null>(null);
  const editComment = trpc.feeds.editComment.useMutation({ onSuccess: () => (setEditing(null), refresh()) });

  if (post.isPending) return <Spinner />;
  if (post.isError)
    return (
      <div className="empty-state">
        <FormError message={serverMessage(post.error)} />
        <Link to="/i/recent/feeds/all">
          <Trans>Back to the feed</Trans>
        </Link>
      </div>
    );
  const p = post.data;
  return (
    <>
      <Link to="/i/recent/feeds/all">
        <Trans>Back to the feed</Trans>
      </Link>
      <PostCard post={p} domain={domain} full onRemoved={() => void navigate('/i/recent/feeds/all')} />
      <section className="feed-comments" aria-labelledby="comments-title">
        <h2 id="comments-title">
          <Trans>Comments</Trans>
        </h2>
        {p.comments.length === 0 && (
          <p className="muted">
            <Trans>No comments yet.</Trans>
          </p>
        )}
        <ul>
          {p.comments.map((c) => (
            <li key={c.id} className="feed-comment">
              <strong>{c.authorName ?? t`Former member`}</strong>{' '}
              <span className="muted">{i18n.date(new Date(c.createdAt), { dateStyle: 'short', timeStyle: 'short' })}</span>
              {editing?.id === c.id ? (
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    editComment.mutate({ domain, commentId: c.id, text: editing.text });
                  }}
                >
                  <label className="visually-hidden" htmlFor={`comment-${c.id}`}>
                    <Trans>Comment</Trans>
                  </label>
                  <textarea id={`comment-${c.id}`} rows={2} maxLength={FEED_COMMENT_MAX} value={editing.text} onChange={(e) => setEditing({ id: c.id, text: e.target.value })} />
                  <button type="submit" className="button button-small" disabled={editComment.isPending}>
                    <Trans>Save</Trans>
                  </button>
                  <button type="button" className="button button-secondary button-small" onClick={() => setEditing(null)}>
                    <Trans>Cancel</Trans>
                  </button>
                </form>
              ) : (
                <p className="feed-text">
                  <LinkedText text={c.text} />
                </p>
              )}
              {c.canChange && editing?.id !== c.id && (
                <span className="feed-post-actions">
                  <button type="button" className="link-button" onClick={() => setEditing({ id: c.id, text: c.text })}>
                    <Trans>Edit</Trans>
                  </button>
                  <button type="button" className="link-button" disabled={removeComment.isPending} onClick={() => removeComment.mutate({ domain, commentId: c.id })}>
                    <Trans>Remove</Trans>
                  </button>
                </span>
              )}
            </li>
          ))}
        </ul>
        <FormError message={serverMessage(removeComment.error ?? editComment.error)} />
        <form
          className="feed-comment-form"
          onSubmit={(e) => {
            e.preventDefault();
            comment.mutate({ domain, postId, text });
          }}
        >
          <label htmlFor="new-comment">
            <Trans>Write a comment</Trans>
          </label>
          <textarea id="new-comment" rows={2} maxLength={FEED_COMMENT_MAX} value={text} onChange={(e) => setText(e.target.value)} />
          <FormError message={serverMessage(comment.error)} />
          <button type="submit" className="button" disabled={comment.isPending || !text.trim()}>
            <Trans>Comment</Trans>
          </button>
        </form>
      </section>
    </>
  );
}

/** /:emp/feeds/:feedId — a post its author published publicly, for anyone with the link. */
function PublicPostPage() {
  const { t, i18n } = useLingui();
  const { emp = '', feedId = '' } = useParams();
  const serverMessage = useServerMessage();
  const post = trpc.feeds.publicPost.useQuery({ domain: emp, postId: feedId }, { retry: false });
  if (post.isPending) return <Spinner />;
  if (post.isError)
    return (
      <section className="page page-centered">
        <PageTitle title={t`Post`} />
        <FormError message={serverMessage(post.error)} />
        <Link to={`/${emp}`}>
          <Trans>Go to the company page</Trans>
        </Link>
      </section>
    );
  const p = post.data;
  return (
    <section className="page feed-page feed-public">
      <PageTitle title={p.company.name} />
      <article className="feed-post">
        <header className="feed-post-header">
          <strong>{p.authorName ?? p.company.name}</strong>
          <time className="muted" dateTime={new Date(p.createdAt).toISOString()}>
            {i18n.date(new Date(p.createdAt), { dateStyle: 'medium', timeStyle: 'short' })}
          </time>
        </header>
        {p.text && (
          <p className="feed-text">
            <LinkedText text={p.text} />
          </p>
        )}
        <Attachments files={p.attachments} />
        {p.reactions.length > 0 && (
          <p className="feed-reactions muted">
            {p.reactions.map((r) => (
              <span key={r.emoji} className="feed-reaction">
                {r.emoji} {r.count}
              </span>
            ))}
          </p>
        )}
      </article>
      <Link className="button button-secondary" to={`/${p.company.domain}`}>
        <Trans>Talk to {p.company.name}</Trans>
      </Link>
    </section>
  );
}
