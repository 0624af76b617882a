import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import type { CallParticipantState, CallState } from '../../../shared/call-events';
import { SPEAKER_LEVEL_THRESHOLD } from '../../../shared/constants';
import { activeSpeaker, gridLayout } from '../../../shared/domain/call-grid';
import { CALL_MESSAGES, type CallCommand } from '../../../shared/domain/calls';
import { useMyCompanies, useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { ModalDialog } from '../../ui/Dialog';
import { IconButton } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { MenuButton, MenuItem } from '../../ui/Menu';
import { Captions, Disc, Mic, MicOff, MessageSquare, OctagonX, PhoneOff, ScreenShare, ScreenShareOff, Settings, Square, Users, Video, VideoOff, type LucideIcon } from 'lucide-react';
import { DeviceChooser } from './DeviceChooser';
import { formatDuration, useAudioLevels, useElapsedSeconds, useNarrow } from './hooks';
import type { RemoteTrack, SessionSnapshot } from './session';
import { listen, SPEECH_TAGS, speechRecognitionSupported } from './speech';
import { SUBTITLE_LANGUAGES, type SubtitleLanguage } from '../../../shared/domain/subtitles';
import { applyDevices, endCallForAll, leaveCall, setCamera, setMicrophone, shareScreen, showError, stopScreen, type ActiveCall } from './store';
import { CallConsent } from '../telemedicine/CallConsent';
import { CALL_TYPE } from '../../../shared/constants';
import type { AnnotationTool } from '../../../shared/domain/annotations';
import { AnnotatedScreen, AnnotationTools, ShareRequest, WaitingForScreen } from './RemoteAssist';

interface Tile {
  userId: string;
  name: string;
  isMe: boolean;
  video: MediaStreamTrack | null;
  videoOn: boolean;
  audioOn: boolean;
}

/** The call, over the router view: header with the controls, the camera grid, the shared screen, the drawer. */
export function CallScreen({ active, userId }: { active: ActiveCall; userId: string }) {
  const { t, i18n } = useLingui();
  const session = active.session!;
  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot);
  const state = snapshot.state;
  const narrow = useNarrow();
  const [drawer, setDrawer] = useState<'chat' | 'people' | 'subtitles' | null>(null);
  const [page, setPage] = useState(0);
  const mine = useMyCompanies();
  const serverMessage = useServerMessage();
  const [recordingRefusal, setRecordingRefusal] = useState<string | null>(null);
  const startRecording = trpc.calls.startRecording.useMutation();
  const stopRecording = trpc.calls.stopRecording.useMutation();

  const me = state?.participants.find((p) => p.userId === userId);
  const isOwner = state?.ownerId === userId;
  const isAdmin = !!mine.data?.some((c) => c.domain === state?.domain && c.isAdmin && c.state === 'active');
  const viewer = active.role === 'viewer';

  const remoteBy = (uid: string, source: RemoteTrack['source']) => snapshot.remotes.find((r) => r.userId === uid && r.source === source);
  const tiles: Tile[] = (state?.participants ?? [])
    .filter((p) => p.connected || p.userId === userId)
    .map((p) => {
      if (p.userId === userId) {
        return { userId: p.userId, name: p.name, isMe: true, video: snapshot.local.cam, videoOn: snapshot.local.camOn, audioOn: snapshot.local.micOn };
      }
      const cam = remoteBy(p.userId, 'cam');
      return { userId: p.userId, name: p.name, isMe: false, video: cam?.track ?? null, videoOn: !!cam && !cam.paused && p.video, audioOn: p.audio };
    });
  const screens = [
    ...snapshot.remotes.filter((r) => r.source === 'screen').map((r) => ({ id: r.producerId, track: r.track, name: state?.participants.find((p) => p.userId === r.userId)?.name ?? '' })),
    ...(snapshot.local.screen ? [{ id: 'mine', track: snapshot.local.screen, name: me?.name ?? '' }] : []),
  ];
  // Remote assistance (tipo 4): the owner draws over the customer's screen, the customer shares it.
  const remoteAssist = state?.type === CALL_TYPE.remoteAccess;
  const [tool, setTool] = useState<AnnotationTool>('pen');
  const [shareError, setShareError] = useState<string | null>(null);
  const joined = snapshot.status === 'joined';
  useEffect(() => {
    if (remoteAssist && isOwner && joined) void session.openAnnotations().catch((err) => showError((err as Error).message));
  }, [remoteAssist, isOwner, joined, session]);
  const ownerName = state?.participants.find((p) => p.isOwner)?.name ?? '';
  const customerName = state?.participants.find((p) => !p.isOwner)?.name ?? '';
  const audioTracks = useMemo(
    () => snapshot.remotes.filter((r) => r.kind === 'audio' && !r.paused).map((r) => ({ id: r.userId, track: r.track })),
    [snapshot.remotes],
  );
  const levels = useAudioLevels(audioTracks);
  const speaker = activeSpeaker(levels, SPEAKER_LEVEL_THRESHOLD);
  const layout = gridLayout(tiles.length, { narrow });
  const pageTiles = tiles.slice(page * layout.perPage, (page + 1) * layout.perPage);
  useEffect(() => {
    if (page >= layout.pages) setPage(0);
  }, [page, layout.pages]);

  const elapsed = useElapsedSeconds(state?.open ? (state.startedAt ?? null) : null);
  const recording = state?.rec === 3;
  const recordingBusy = state?.rec === 2 || startRecording.isPending || stopRecording.isPending;
  const canRecord = !viewer && (isOwner || isAdmin);

  const toggleRecording = async () => {
    if (!state) return;
    try {
      if (recording) await stopRecording.mutateAsync({ callId: state.id });
      else await startRecording.mutateAsync({ callId: state.id });
    } catch (err) {
      setRecordingRefusal((err as Error).message);
    }
  };
  // Our own speech becomes subtitles while the call's subtitles are on and our microphone is.
  const speechSupported = useMemo(speechRecognitionSupported, []);
  const speaking = !!state?.subtitles && snapshot.local.micOn && speechSupported && !viewer;
  const speechTag = SPEECH_TAGS[i18n.locale.slice(0, 2)] ?? 'en-US';
  useEffect(() => {
    if (!speaking) return;
    return listen(speechTag, (text, lang) => void session.sendTranscript(text, lang).catch(() => {}));
  }, [speaking, speechTag, session]);
  const subtitleSpeaker = snapshot.subtitle ? (snapshot.subtitle.userId === userId ? t`You` : snapshot.subtitle.name || t`Guest`) : '';

  const act = (fn: () => Promise<unknown>) => () => void fn().catch((err) => showError((err as Error).message));

  const [confirmEnd, setConfirmEnd] = useState(false);
  const [ending, setEnding] = useState<{ pending: boolean; error: string | null }>({ pending: false, error: null });
  const [settings, setSettings] = useState(false);
  // What a control cannot do here (subtitles without speech recognition), read after its name.
  const hintId = useId();
  const endForAll = () => {
    setEnding({ pending: true, error: null });
    endCallForAll().then(
      () => setConfirmEnd(false),
      (err) => setEnding({ pending: false, error: serverMessage({ message: (err as Error).message }) ?? (err as Error).message }),
    );
  };

  // In the bar always: microphone, camera, the device settings and Leave; the rest goes to 'More' on phones.
  const controls: { key: string; label: string; icon: LucideIcon; title?: string; pressed?: boolean; onClick: () => void; primary?: boolean; danger?: boolean; hidden?: boolean; disabled?: boolean }[] = [
    { key: 'mic', label: snapshot.local.micOn ? t`Turn off microphone` : t`Turn on microphone`, icon: snapshot.local.micOn ? Mic : MicOff, pressed: !snapshot.local.micOn, onClick: act(() => setMicrophone(!snapshot.local.micOn)), primary: true, hidden: viewer },
    { key: 'cam', label: snapshot.local.camOn ? t`Turn off camera` : t`Turn on camera`, icon: snapshot.local.camOn ? Video : VideoOff, pressed: !snapshot.local.camOn, onClick: act(() => setCamera(!snapshot.local.camOn)), primary: true, hidden: viewer },
    { key: 'screen', label: snapshot.local.screen ? t`Stop sharing` : t`Share screen`, icon: snapshot.local.screen ? ScreenShareOff : ScreenShare, pressed: !!snapshot.local.screen, onClick: act(() => (snapshot.local.screen ? stopScreen() : shareScreen())), hidden: viewer },
    { key: 'record', label: recording ? t`Stop recording` : t`Record`, icon: recording ? Square : Disc, pressed: recording, onClick: () => void toggleRecording(), hidden: !canRecord, disabled: recordingBusy },
    {
      key: 'subtitles',
      label: t`Subtitles (CC)`,
      icon: Captions,
      pressed: drawer === 'subtitles' || !!me?.subtitlesOn,
      onClick: () => setDrawer(drawer === 'subtitles' ? null : 'subtitles'),
      title: speechSupported ? undefined : t`Subtitles of your own speech need a browser with speech recognition`,
    },
    { key: 'people', label: t`People`, icon: Users, pressed: drawer === 'people', onClick: () => setDrawer(drawer === 'people' ? null : 'people') },
    { key: 'chat', label: t`Chat`, icon: MessageSquare, pressed: drawer === 'chat', onClick: () => setDrawer(drawer === 'chat' ? null : 'chat') },
    { key: 'settings', label: t`Audio and video settings`, icon: Settings, onClick: () => setSettings(true), primary: true, hidden: viewer },
    { key: 'end', label: t`End for everyone`, icon: OctagonX, onClick: () => setConfirmEnd(true), danger: true, hidden: !isOwner },
    { key: 'leave', label: t`Leave`, icon: PhoneOff, onClick: () => void leaveCall(), danger: true, primary: true },
  ];
  const shown = controls.filter((c) => !c.hidden);
  const inBar = narrow ? shown.filter((c) => c.primary) : shown;
  const inMenu = narrow ? shown.filter((c) => !c.primary) : [];
  const leave = inBar.find((c) => c.key === 'leave')!;

  return (
    <section className="call-screen" aria-label={t`Call`}>
      <header className="call-header">
        <div className="call-status">
          <span className="call-timer" role="timer" aria-label={t`Call duration`}>
            {elapsed === null ? t`Waiting` : formatDuration(elapsed)}
          </span>
          {recording && (
            <span className="badge badge-danger call-rec" role="status">
              <Trans>Recording</Trans>
            </span>
          )}
          {state?.rec === 2 && (
            <span className="badge badge-warn" role="status">
              <Trans>Recording: please wait…</Trans>
            </span>
          )}
          {state?.isLive && (
            <span className="badge" role="status">
              <Viewers count={state.viewers} />
            </span>
          )}
        </div>
      </header>
      <div className={drawer ? 'call-body call-body-drawer' : 'call-body'}>
        <div className="call-media">
          {remoteAssist && screens.length === 0 && !viewer &&
            (isOwner ? (
              <WaitingForScreen customer={customerName} />
            ) : (
              <ShareRequest
                attendant={ownerName}
                error={shareError}
                onShare={() => {
                  setShareError(null);
                  shareScreen().catch((err) => setShareError(serverMessage({ message: (err as Error).message }) ?? t`Your screen could not be shared. Try again.`));
                }}
              />
            ))}
          {remoteAssist && isOwner && screens.length > 0 && <AnnotationTools tool={tool} onTool={setTool} onClear={() => session.annotate({ kind: 'clear' })} />}
          {screens.length > 0 && (
            <section className="call-stage" aria-label={t`Shared screen`}>
              {screens.map(({ id, track, name }) => (
                <figure key={id} className="call-screen-share">
                  {remoteAssist ? (
                    <AnnotatedScreen
                      track={track}
                      label={t`Screen of ${name}`}
                      scene={snapshot.annotations}
                      tool={tool}
                      onAnnotate={isOwner && id !== 'mine' ? (a) => session.annotate(a) : undefined}
                    />
                  ) : (
                    <TrackVideo track={track} label={t`Screen of ${name}`} />
                  )}
                  <figcaption>{t`Screen of ${name}`}</figcaption>
                </figure>
              ))}
            </section>
          )}
          <ul className="call-grid" style={{ gridTemplateColumns: `repeat(${layout.columns}, minmax(0, 1fr))` }} aria-label={t`Participants' cameras`}>
            {pageTiles.map((tile) => (
              <li key={tile.userId} className={tile.userId === speaker ? 'call-tile call-tile-speaking' : 'call-tile'} aria-label={tile.isMe ? t`You` : tile.name}>
                {tile.video && tile.videoOn ? <TrackVideo track={tile.video} muted label={tile.name} mirror={tile.isMe} /> : <Avatar name={tile.name} />}
                <span className="call-tile-name">
                  {tile.isMe ? t`You` : tile.name}
                  {!tile.audioOn && <span className="call-tile-muted">{t`(muted)`}</span>}
                </span>
              </li>
            ))}
          </ul>
          {layout.pages > 1 && (
            <nav className="call-pager" aria-label={t`Camera pages`}>
              <button type="button" className="button button-small button-secondary" disabled={page === 0} onClick={() => setPage(page - 1)}>
                <Trans>Previous</Trans>
              </button>
              <PageOf page={page + 1} pages={layout.pages} />
              <button type="button" className="button button-small button-secondary" disabled={page >= layout.pages - 1} onClick={() => setPage(page + 1)}>
                <Trans>Next</Trans>
              </button>
            </nav>
          )}
          <MediaLinkNotice link={snapshot.media} />
          {(snapshot.subtitle || snapshot.notice) && (
            <div className="call-subtitle" role="status" aria-live="polite" aria-label={t`Subtitles`}>
              {snapshot.subtitle && (
                <p>
                  <strong>{subtitleSpeaker}:</strong> {snapshot.subtitle.text}
                </p>
              )}
              {snapshot.notice && <p className="call-subtitle-notice">{serverMessage({ message: snapshot.notice })}</p>}
            </div>
          )}
          {state?.telemedicine && !isOwner && !viewer && <CallConsent callId={state.id} />}
          {snapshot.remotes
            .filter((r) => r.kind === 'audio')
            .map((r) => (
              <TrackAudio key={r.producerId} track={r.track} />
            ))}
        </div>
        {drawer && state && (
          <aside className="call-drawer" aria-label={drawer === 'chat' ? t`Chat` : drawer === 'subtitles' ? t`Subtitles` : t`People`}>
            <div className="call-drawer-tabs" role="tablist">
              <button type="button" role="tab" aria-selected={drawer === 'chat'} onClick={() => setDrawer('chat')}>
                <Trans>Chat</Trans>
              </button>
              <button type="button" role="tab" aria-selected={drawer === 'people'} onClick={() => setDrawer('people')}>
                <Trans>People</Trans>
              </button>
              <button type="button" role="tab" aria-selected={drawer === 'subtitles'} onClick={() => setDrawer('subtitles')}>
                <Trans>Subtitles</Trans>
              </button>
              <button type="button" className="call-drawer-close" aria-label={t`Close`} onClick={() => setDrawer(null)}>
                ×
              </button>
            </div>
            {drawer === 'chat' ? (
              <CallChat lines={snapshot.chat} onSend={(text) => session.sendChat(text)} />
            ) : drawer === 'subtitles' ? (
              <SubtitlesPanel state={state} me={me ?? null} canToggle={!viewer && (isOwner || isAdmin)} speechSupported={speechSupported} />
            ) : (
              <PeoplePanel state={state} userId={userId} isOwner={isOwner} />
            )}
          </aside>
        )}
      </div>
      <div className="call-bar" role="toolbar" aria-label={t`Call controls`}>
        {inBar
          .filter((c) => c !== leave)
          .map((c) => (
            <IconButton
              key={c.key}
              label={c.label}
              icon={c.icon}
              danger={c.danger}
              aria-pressed={c.pressed}
              aria-describedby={c.title ? hintId : undefined}
              isDisabled={c.disabled}
              onPress={c.onClick}
              className={c.pressed ? 'call-bar-on' : undefined}
            />
          ))}
        {inMenu.length > 0 && (
          <MenuButton label={t`More`} placement="top end" variant="quiet">
            {inMenu.map((c) => (
              <MenuItem key={c.key} id={c.key} icon={c.icon} danger={c.danger} isDisabled={c.disabled} onAction={c.onClick}>
                {c.label}
              </MenuItem>
            ))}
          </MenuButton>
        )}
        {shown.some((c) => c.title) && (
          <span id={hintId} hidden>
            {shown.find((c) => c.title)!.title}
          </span>
        )}
        <IconButton label={leave.label} icon={leave.icon} onPress={leave.onClick} className="call-bar-leave" />
      </div>
      {settings && (
        <DeviceChooser
          type={active.type}
          settings
          cameraOn={snapshot.local.camOn}
          busy={false}
          error={null}
          onCancel={() => setSettings(false)}
          onJoin={(media) => {
            setSettings(false);
            void applyDevices(media).catch((err) => showError((err as Error).message));
          }}
        />
      )}
      {confirmEnd && (
        <ConfirmDialog
          title={t`End the call for everyone?`}
          confirmLabel={t`End for everyone`}
          danger
          pending={ending.pending}
          error={ending.error}
          onConfirm={endForAll}
          onCancel={() => {
            setConfirmEnd(false);
            setEnding({ pending: false, error: null });
          }}
        >
          <p>
            <Trans>Everyone leaves the call and it ends. To leave it alone, use Leave.</Trans>
          </p>
        </ConfirmDialog>
      )}
      {recordingRefusal && (
        <ModalDialog
          className="dialog-wide"
          title={recordingRefusal === CALL_MESSAGES.recordingDisabled ? t`Recording disabled` : t`Recording`}
          role="alertdialog"
          onCancel={() => setRecordingRefusal(null)}
          actions={
            <button type="button" className="button" autoFocus onClick={() => setRecordingRefusal(null)}>
              <Trans>OK</Trans>
            </button>
          }
        >
          <p>{serverMessage({ message: recordingRefusal })}</p>
        </ModalDialog>
      )}
    </section>
  );
}

function Viewers({ count }: { count: number }) {
  const { t } = useLingui();
  return <>{t({ message: plural(count, { one: '# watching', other: '# watching' }) })}</>;
}

function PageOf({ page, pages }: { page: number; pages: number }) {
  return (
    <span>
      <Trans>
        Page {page} of {pages}
      </Trans>
    </span>
  );
}

function TrackVideo({ track, muted = true, label, mirror }: { track: MediaStreamTrack; muted?: boolean; label: string; mirror?: boolean }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.srcObject = new MediaStream([track]);
  }, [track]);
  return <video ref={ref} autoPlay playsInline muted={muted} aria-label={label} className={mirror ? 'call-video call-video-mirror' : 'call-video'} />;
}

function TrackAudio({ track }: { track: MediaStreamTrack }) {
  const ref = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    ref.current.srcObject = new MediaStream([track]);
    void ref.current.play().catch(() => {});
  }, [track]);
  return <audio ref={ref} autoPlay />;
}

function Avatar({ name }: { name: string }) {
  const initial = (name.trim()[0] ?? '?').toUpperCase();
  return (
    <div className="call-avatar" aria-hidden="true">
      {initial}
    </div>
  );
}

function CallChat({ lines, onSend }: { lines: { id: string; name: string; text: string; userId: string }[]; onSend: (text: string) => Promise<void> }) {
  const { t } = useLingui();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    list.current?.lastElementChild?.scrollIntoView({ block: 'end' });
  }, [lines.length]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = text.trim();
    if (!value) return;
    setSending(true);
    try {
      await onSend(value);
      setText('');
    } catch (err) {
      showError((err as Error).message);
    } finally {
      setSending(false);
    }
  };
  return (
    <div className="call-chat">
      <ol ref={list} className="call-chat-lines" aria-label={t`Messages`} aria-live="polite">
        {lines.length === 0 && (
          <li className="muted">
            <Trans>No messages yet. Messages here are seen by everyone in the call and are not kept after it.</Trans>
          </li>
        )}
        {lines.map((l) => (
          <li key={l.id}>
            <strong>{l.name || t`Guest`}</strong> {l.text}
          </li>
        ))}
      </ol>
      <form className="call-chat-form" onSubmit={submit}>
        <input aria-label={t`Message`} value={text} maxLength={1500} onChange={(e) => setText(e.target.value)} placeholder={t`Write a message`} />
        <button type="submit" className="button button-small" disabled={sending || !text.trim()}>
          <Trans>Send</Trans>
        </button>
      </form>
    </div>
  );
}

function KickQuestion({ name }: { name: string }) {
  return (
    <p>
      <Trans>Do you want to remove {name} from the call?</Trans>
    </p>
  );
}

function statusOf(p: CallParticipantState, t: ReturnType<typeof useLingui>['t']): string {
  if (p.connected) return t`In the call`;
  if (p.calling) return t`Ringing…`;
  if (p.connecting) return t`Joining…`;
  if (p.rejected) return t`Declined`;
  return t`Not in the call`;
}

function PeoplePanel({ state, userId, isOwner }: { state: CallState; userId: string; isOwner: boolean }) {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const described = trpc.calls.get.useQuery({ callId: state.id });
  const command = trpc.calls.command.useMutation();
  const invite = trpc.calls.invite.useMutation();
  const [kick, setKick] = useState<CallParticipantState | null>(null);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = (p: CallParticipantState, c: CallCommand) =>
    command.mutate({ callId: state.id, userId: p.userId, command: c }, { onError: (err) => setError(err.message), onSuccess: () => setError(null) });
  const link = described.data?.link ? `${window.location.origin}${described.data.link}` : null;

  return (
    <div className="call-people">
      {error && (
        <p className="form-error" role="alert">
          {serverMessage({ message: error })}
        </p>
      )}
      <ul className="call-people-list" aria-label={t`People`}>
        {state.participants.map((p) => {
          const name = p.name || t`Guest`;
          return (
          <li key={p.userId}>
            <div>
              <strong>{p.userId === userId ? t`You` : name}</strong>
              {p.isOwner && <span className="badge">{t`Owner`}</span>}
              <div className="muted">{statusOf(p, t)}</div>
            </div>
            {isOwner && p.userId !== userId && p.connected && (
              <div className="call-people-actions">
                {p.audio ? (
                  <button type="button" className="button button-small button-secondary" onClick={() => send(p, 'mute')}>
                    {t`Mute ${name}`}
                  </button>
                ) : (
                  <button type="button" className="button button-small button-secondary" onClick={() => send(p, 'unmute')}>
                    {t`Ask ${name} to unmute`}
                  </button>
                )}
                {p.video ? (
                  <button type="button" className="button button-small button-secondary" onClick={() => send(p, 'muteVideo')}>
                    {t`Turn off the camera of ${name}`}
                  </button>
                ) : (
                  <button type="button" className="button button-small button-secondary" onClick={() => send(p, 'unmuteVideo')}>
                    {t`Ask ${name} to turn on the camera`}
                  </button>
                )}
                <button type="button" className="button button-small call-control-danger" onClick={() => setKick(p)}>
                  {t`Remove ${name}`}
                </button>
              </div>
            )}
            {!p.connected && !p.calling && !state.isLive && p.userId !== userId && (
              <button type="button" className="button button-small button-secondary" disabled={invite.isPending} onClick={() => invite.mutate({ callId: state.id, userIds: [p.userId] }, { onError: (err) => setError(err.message) })}>
                {t`Call ${name} again`}
              </button>
            )}
          </li>
          );
        })}
      </ul>
      {link && (
        <section className="call-invite" aria-label={t`Invite`}>
          <h3>
            <Trans>Invite</Trans>
          </h3>
          <p className="muted">
            <Trans>Anyone with this link can join the call, including customers and visitors without an account.</Trans>
          </p>
          <input readOnly value={link} aria-label={t`Call link`} onFocus={(e) => e.currentTarget.select()} />
          <button
            type="button"
            className="button button-small"
            onClick={() => {
              void navigator.clipboard?.writeText(link).then(() => setCopied(true), () => {});
            }}
          >
            {copied ? t`Copied` : t`Copy link`}
          </button>
        </section>
      )}
      {kick && (
        <ModalDialog
          className="dialog-wide"
          title={t`Remove from the call`}
          role="alertdialog"
          onCancel={() => setKick(null)}
          actions={
            <>
              <button
                type="button"
                className="button call-control-danger"
                onClick={() => {
                  send(kick, 'kick');
                  setKick(null);
                }}
              >
                <Trans>Yes</Trans>
              </button>
              <button type="button" className="button button-secondary" autoFocus onClick={() => setKick(null)}>
                <Trans>No</Trans>
              </button>
            </>
          }
        >
          <KickQuestion name={kick.name} />
        </ModalDialog>
      )}
    </div>
  );
}

const LANGUAGE_NAMES: Record<SubtitleLanguage, string> = { en: 'English', pt: 'Português', es: 'Español', it: 'Italiano', de: 'Deutsch' };

/** The drawer's subtitle settings: the call's switch (owner/admin), one's own subtitles and translation. */
function SubtitlesPanel({ state, me, canToggle, speechSupported }: { state: CallState; me: CallParticipantState | null; canToggle: boolean; speechSupported: boolean }) {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const setCall = trpc.calls.setSubtitles.useMutation();
  const setMine = trpc.calls.setMySubtitles.useMutation();
  const [error, setError] = useState<string | null>(null);
  const language = (me?.language ?? i18n.locale.slice(0, 2)) as SubtitleLanguage;
  const onError = (err: { message: string }) => setError(err.message);
  const onSuccess = () => setError(null);
  const mine = (input: { subtitles?: boolean; translation?: boolean; language?: SubtitleLanguage }) =>
    setMine.mutate({ callId: state.id, ...input }, { onError, onSuccess });
  return (
    <div className="call-subtitles">
      {error && (
        <p className="form-error" role="alert">
          {serverMessage({ message: error })}
        </p>
      )}
      {canToggle && (
        <label className="device-toggle">
          <input
            type="checkbox"
            checked={state.subtitles}
            disabled={setCall.isPending}
            onChange={(e) => setCall.mutate({ callId: state.id, on: e.target.checked }, { onError, onSuccess })}
          />
          <Trans>Subtitles in this call</Trans>
        </label>
      )}
      {!state.subtitles && (
        <p className="muted">
          <Trans>Subtitles are off in this call</Trans>
        </p>
      )}
      <label className="device-toggle">
        <input type="checkbox" checked={!!me?.subtitlesOn} disabled={!me || setMine.isPending} onChange={(e) => mine({ subtitles: e.target.checked })} />
        <Trans>Show subtitles</Trans>
      </label>
      <label className="device-toggle">
        <input type="checkbox" checked={!!me?.translationOn} disabled={!me || setMine.isPending} onChange={(e) => mine({ translation: e.target.checked })} />
        <Trans>Translate subtitles into my language</Trans>
      </label>
      <label>
        <Trans>My language</Trans>
        <select value={language} disabled={!me || setMine.isPending} onChange={(e) => mine({ language: e.target.value as SubtitleLanguage })}>
          {SUBTITLE_LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {LANGUAGE_NAMES[l]}
            </option>
          ))}
        </select>
      </label>
      {!speechSupported && (
        <p className="muted" role="note">
          <Trans>Subtitles of your own speech need a browser with speech recognition. You still see the subtitles of the others.</Trans>
        </p>
      )}
    </div>
  );
}

/**
 * Says when audio and video are not flowing yet, or any more, instead of leaving black tiles and a
 * running timer. A failure says what to check: almost always a network path to the call ports.
 */
function MediaLinkNotice({ link }: { link: SessionSnapshot['media'] }) {
  const { t } = useLingui();
  if (link === 'connected' || link === 'idle') return null;
  if (link === 'failed') {
    return (
      <div className="call-link call-link-failed" role="alert">
        <strong>{t`Audio and video could not connect.`}</strong>{' '}
        {t`This network does not reach the call server's media ports. Try another network, or ask your administrator to check the call ports and the announced address (RTC_ANNOUNCED_IP).`}
      </div>
    );
  }
  return (
    <div className="call-link" role="status" aria-live="polite">
      {link === 'reconnecting' ? t`Reconnecting…` : t`Connecting…`}
    </div>
  );
}
