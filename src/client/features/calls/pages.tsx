import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { CallState } from '../../../shared/call-events';
import { CALL_TYPE, CONVERSATION_TYPE } from '../../../shared/constants';
import { useSelectedCompany, useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { FormError, SubmitButton } from '../../ui/Form';
import { TextField } from '../../ui/fields';
import { PageTitle } from '../../ui/PageTitle';
import { Spinner } from '../../ui/Spinner';
import { CallsHost } from './CallsHost';
import { formatDuration } from './hooks';
import { StartCallButtons } from './StartCallButtons';
import { enterCall, enterLive, prepareLive, useCallsState } from './store';

/**
 * /i/recent/meeting/{id}: the meeting room of conversation {id} — start a voice, video or
 * screen-share call (or join the one going on), and the conversation's past calls with their
 * recordings, which play from storage.
 */
export function MeetingPage() {
  const { t } = useLingui();
  const { id = '' } = useParams();
  const { company, isPending } = useSelectedCompany();
  const { active } = useCallsState();
  const serverMessage = useServerMessage();
  const domain = company?.domain ?? '';
  const history = trpc.calls.history.useQuery({ domain, conversationId: id }, { enabled: !!domain, refetchInterval: active ? 5000 : false });
  const refetch = history.refetch;
  useEffect(() => {
    if (domain) void refetch();
  }, [active?.callId, active?.phase, domain, refetch]);

  if (isPending || (domain && history.isPending)) return <Spinner />;
  if (!company || history.error) {
    return (
      <section className="page">
        <PageTitle title={t`Meeting`} />
        <p className="form-error" role="alert">
          {history.error ? serverMessage(history.error) : <Trans>Choose a company first.</Trans>}
        </p>
      </section>
    );
  }
  const conversation = history.data!.conversation;
  const isLiveRoom = conversation.type === CONVERSATION_TYPE.live;
  const title = conversation.title;
  return (
    <section className="page meeting-page">
      <PageTitle title={title ? t`Meeting: ${title}` : t`Meeting`} />
      {isLiveRoom ? <LiveRoomControls domain={domain} conversationId={id} /> : <StartCallButtons conversationId={id} />}
      <h2>
        <Trans>Calls</Trans>
      </h2>
      {history.data!.calls.length === 0 ? (
        <p className="muted empty-state">
          <Trans>No calls in this conversation yet.</Trans>
        </p>
      ) : (
        <ol className="meeting-calls">
          {history.data!.calls.map((c) => (
            <li key={c.state.id}>
              <CallSummary state={c.state} recordings={c.recordings} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function CallSummary({ state, recordings }: { state: CallState; recordings: { id: string; fileName: string; durationMs: number; url: string }[] }) {
  const { t, i18n } = useLingui();
  const started = state.startedAt ? new Date(state.startedAt) : null;
  const seconds = started && state.endedAt ? Math.round((new Date(state.endedAt).getTime() - started.getTime()) / 1000) : null;
  const duration = seconds !== null ? formatDuration(seconds) : null;
  const kind = state.isLive ? t`Live session` : state.type === CALL_TYPE.voice ? t`Voice call` : state.type === CALL_TYPE.screenShare ? t`Screen share` : state.type === CALL_TYPE.remoteAccess ? t`Remote assistance` : t`Video call`;
  const people = state.participants.map((p) => p.name).filter(Boolean).join(', ');
  return (
    <article className="meeting-call" aria-label={kind}>
      <header>
        <strong>{kind}</strong>{' '}
        <span className="muted">{started ? i18n.date(started, { dateStyle: 'short', timeStyle: 'short' }) : null}</span>{' '}
        {state.concluded ? (
          <span className="badge">{duration ? t`Ended · ${duration}` : t`Ended`}</span>
        ) : (
          <span className="badge badge-ok">{t`In progress`}</span>
        )}
      </header>
      {people && <p className="muted">{people}</p>}
      {recordings.length > 0 && (
        <ul className="meeting-recordings" aria-label={t`Recordings`}>
          {recordings.map(({ id, url, fileName, durationMs }) => (
            <li key={id}>
              <video controls preload="metadata" src={url} aria-label={t`Recording ${fileName}`} />
              <div className="muted">
                {fileName} · {formatDuration(Math.round(durationMs / 1000))}
              </div>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

/** A live room (conversation type 4): start the session as its presenter, or join it; share its public link. */
function LiveRoomControls({ domain, conversationId }: { domain: string; conversationId: string }) {
  const { t } = useLingui();
  const { active } = useCallsState();
  const open = trpc.calls.openInConversation.useQuery({ domain, conversationId }, { refetchInterval: 15_000 });
  const link = `${window.location.origin}/${domain}/live/${conversationId}`;
  const running = open.data && !open.data.concluded ? open.data : null;
  return (
    <div className="call-start">
      {running ? (
        <button type="button" className="button" disabled={!!active} onClick={() => void enterCall({ callId: running.id })}>
          <Trans>Join the live session</Trans>
        </button>
      ) : (
        <button type="button" className="button" disabled={!!active} onClick={() => prepareLive({ domain, conversationId })}>
          <Trans>Start the live session</Trans>
        </button>
      )}
      <label className="field">
        <span>{t`Public link for viewers`}</span>
        <input readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
      </label>
    </div>
  );
}

/**
 * /i/optionsList/newLive: a live room (a conversation of type 4) with a title; its creator lands
 * in it (/i/recent/live/{id}) to start the session and share the public link.
 */
export function NewLivePage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const serverMessage = useServerMessage();
  const { company, isPending } = useSelectedCompany();
  const create = trpc.calls.createLive.useMutation({ onSuccess: ({ conversationId }) => navigate(`/i/recent/live/${conversationId}`) });
  const [title, setTitle] = useState('');
  const [missing, setMissing] = useState(false);
  if (isPending) return <Spinner />;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!company) return;
    if (!title.trim()) {
      setMissing(true);
      return;
    }
    create.mutate({ domain: company.domain, title: title.trim() });
  };
  return (
    <section className="page new-live">
      <Link to="/i/recent" className="back-link">
        <Trans>Back to the conversations</Trans>
      </Link>
      <PageTitle title={t`New live session`} />
      {!company || company.state !== 'active' ? (
        <p className="muted">
          <Trans>
            <Link to="/i/selectCompany">Choose a company</Link> to start a live session.
          </Trans>
        </p>
      ) : (
        <form onSubmit={submit} noValidate>
          <TextField
            label={t`Title`}
            value={title}
            maxLength={120}
            autoFocus
            error={missing && !title.trim() ? t`Give the live session a title` : undefined}
            onChange={(e) => setTitle(e.target.value)}
          />
          <FormError message={create.error ? serverMessage(create.error) : null} />
          <SubmitButton pending={create.isPending}>
            <Trans>Create live room</Trans>
          </SubmitButton>
        </form>
      )}
    </section>
  );
}

/** 'Para iniciar informe seu nome:' — visitors without a name give one before joining. */
function NamePrompt({ onDone }: { onDone: () => void }) {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const update = trpc.account.update.useMutation({ onSuccess: async () => { await utils.auth.me.invalidate(); onDone(); } });
  const [name, setName] = useState('');
  const fieldId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) update.mutate({ name: name.trim() });
  };
  return (
    <form className="call-name-form" onSubmit={submit}>
      <label htmlFor={fieldId}>
        <Trans>To start, tell us your name:</Trans>
      </label>
      <input id={fieldId} value={name} maxLength={80} autoFocus onChange={(e) => setName(e.target.value)} autoComplete="name" />
      {update.error && (
        <p className="form-error" role="alert">
          {serverMessage(update.error)}
        </p>
      )}
      <button type="submit" className="button" disabled={!name.trim() || update.isPending}>
        <Trans>Continue</Trans>
      </button>
    </form>
  );
}

/** Asks for a name when the visitor has none, then runs `enter` once. */
function useEnterWhenNamed(enter: () => Promise<void>) {
  const me = trpc.auth.me.useQuery();
  const user = me.data?.user ?? null;
  const needsName = !!user && !user.name.trim();
  const entered = useRef(false);
  useEffect(() => {
    if (!user || needsName || entered.current) return;
    entered.current = true;
    void enter();
  }, [user, needsName, enter]);
  return { ready: !!user, needsName };
}

/**
 * /{emp}/call/{id}, /{emp}/call/{id}/{key} and /{emp}/chat/{id}/call/{channel}: a call joined by
 * its link — members, customers and anonymous visitors alike.
 */
export function CallPage() {
  const { t } = useLingui();
  const { id = '', key, channel } = useParams();
  const callId = channel ?? id;
  const [enter] = useState(() => () => enterCall({ callId, ...(key && { key }) }));
  const { ready, needsName } = useEnterWhenNamed(enter);
  const { active } = useCallsState();
  return (
    <section className="page page-centered call-page">
      <PageTitle title={t`Call`} />
      {!ready ? <Spinner /> : needsName ? <NamePrompt onDone={() => undefined} /> : !active && <RejoinButton onClick={() => void enter()} />}
      <CallsHost />
    </section>
  );
}

function RejoinButton({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="button" onClick={onClick}>
      <Trans>Join the call</Trans>
    </button>
  );
}

/**
 * Live sessions. In the app (/i/recent/live/{id}, /i/recent/{id}/live) the live room's members
 * start or join it; on the company's public page (/{emp}/live/{id}) anyone watches.
 */
export function LivePage() {
  const { t } = useLingui();
  const { id = '', emp } = useParams();
  const { company } = useSelectedCompany();
  const [enter] = useState(() => () => enterLive(id));
  if (!emp) {
    return (
      <section className="page">
        <PageTitle title={t`Live session`} />
        {company ? <LiveRoomControls domain={company.domain} conversationId={id} /> : <Spinner />}
      </section>
    );
  }
  return <PublicLive enter={enter} />;
}

function PublicLive({ enter }: { enter: () => Promise<void> }) {
  const { t } = useLingui();
  const { ready, needsName } = useEnterWhenNamed(enter);
  const { active } = useCallsState();
  return (
    <section className="page page-centered call-page">
      <PageTitle title={t`Live session`} />
      {!ready ? (
        <Spinner />
      ) : needsName ? (
        <NamePrompt onDone={() => undefined} />
      ) : (
        !active && (
          <button type="button" className="button" onClick={() => void enter()}>
            <Trans>Watch the live session</Trans>
          </button>
        )
      )}
      <CallsHost />
    </section>
  );
}
