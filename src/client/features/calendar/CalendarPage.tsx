/**
 * The calendar (/i/calendar): FullCalendar in the user's language and time zone, week view by
 * default scrolled to 08:00 (spec), day/week/month/list; select a slot to create, drag or resize
 * to move (a recurring event asks 'Esta Ocorrência' or 'Toda a Série'), click to see, edit, delete
 * or join a meeting's call. Events come from calendar.list for the visible range.
 */
import type { DateSelectArg, EventClickArg, EventDropArg, EventInput, EventSourceFuncArg } from '@fullcalendar/core';
import deLocale from '@fullcalendar/core/locales/de';
import esLocale from '@fullcalendar/core/locales/es';
import itLocale from '@fullcalendar/core/locales/it';
import ptLocale from '@fullcalendar/core/locales/pt-br';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin, { type EventResizeDoneArg } from '@fullcalendar/interaction';
import listPlugin from '@fullcalendar/list';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import { Trans, useLingui } from '@lingui/react/macro';
import type { inferRouterOutputs } from '@trpc/server';
import { BellRing, CalendarPlus, Link2, MessageSquare, Pencil, Trash2, Video } from 'lucide-react';
import { useCallback, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { CALENDAR_DEFAULT_SCROLL, CALL_TYPE } from '../../../shared/constants';
import type { AppRouter } from '../../../server/router';
import { trpc } from '../../trpc';
import { Button, ButtonLink, ConfirmDialog, Facts, FormError, ModalDialog, RefusalState, TextField, toast } from '../../ui';
import { enterCall, prepareCall, useCallsState } from '../calls/store';
import { MemberScreen } from '../service/MemberScreen';
import { useSocketEvent } from '../service/live';
import { useCalendarMessage } from './texts';

type Occurrence = inferRouterOutputs<AppRouter>['calendar']['list'][number];
export type Scope = 'occurrence' | 'series';

const LOCALES = { pt: ptLocale, es: esLocale, it: itLocale, de: deLocale } as const;

export function CalendarPage() {
  const { t } = useLingui();
  return <MemberScreen title={t`Calendar`} className="calendar-page">{(company) => <CalendarView domain={company.domain} />}</MemberScreen>;
}

/** 'Esta Ocorrência' or 'Toda a Série'. */
export function ScopeDialog({ title, onChoose, onCancel }: { title: string; onChoose: (scope: Scope) => void; onCancel: () => void }) {
  return (
    <ModalDialog
      title={title}
      onCancel={onCancel}
      actions={
        <>
          <Button variant="quiet" onPress={onCancel}>
            <Trans>Cancel</Trans>
          </Button>
          <Button variant="secondary" onPress={() => onChoose('series')}>
            <Trans>The whole series</Trans>
          </Button>
          <Button variant="primary" onPress={() => onChoose('occurrence')} autoFocus>
            <Trans>This occurrence</Trans>
          </Button>
        </>
      }
    >
      <p>
        <Trans>This event repeats. Change only this occurrence, or the whole series?</Trans>
      </p>
    </ModalDialog>
  );
}

function CalendarView({ domain }: { domain: string }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const message = useCalendarMessage();
  const utils = trpc.useUtils();
  const [params] = useSearchParams();
  const calendar = useRef<FullCalendar>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [open, setOpen] = useState<Occurrence | null>(null);
  const [move, setMove] = useState<{ occ: Occurrence; start: Date; end: Date; revert: () => void } | null>(null);
  const [feedOpen, setFeedOpen] = useState(false);
  const [permission, setPermission] = useState(() => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission));
  const update = trpc.calendar.update.useMutation();
  const refetch = useCallback(() => calendar.current?.getApi().refetchEvents(), []);
  useSocketEvent('calendar:changed', refetch, refetch);
  useSocketEvent('notification:new', (n) => {
    // The in-app notification is already in the list; a browser notification too when allowed.
    if (n.type?.startsWith('calendarReminder') && typeof Notification !== 'undefined' && Notification.permission === 'granted') {
      new Notification(n.title, { body: n.subtitle, tag: n.id });
    }
  });

  const events = useCallback(
    (range: EventSourceFuncArg, ok: (events: EventInput[]) => void, failed: (error: Error) => void) => {
      utils.client.calendar.list
        .query({ domain, from: range.start, to: range.end })
        .then((rows) => {
          setRefusal(null);
          ok(
            rows.map((o) => ({
              id: `${o.eventId}:${new Date(o.occurrenceStart).getTime()}`,
              title: o.title,
              start: o.start,
              end: o.end,
              allDay: o.allDay,
              editable: o.mine,
              classNames: [o.isMeeting ? 'calendar-meeting' : 'calendar-event', o.mine ? 'calendar-mine' : 'calendar-invited'],
              extendedProps: { occ: o },
            })),
          );
        })
        .catch((err: { message: string; data?: { code?: string } }) => {
          if (err.data?.code === 'FORBIDDEN') setRefusal(message(err));
          else toast.error(message(err) ?? t`Could not load the calendar`);
          failed(err as Error);
        });
    },
    [domain, message, t, utils],
  );

  const moveTo = (occ: Occurrence, start: Date, end: Date, scope: Scope, revert: () => void) => {
    update.mutate(
      { domain, eventId: occ.eventId, scope, occurrenceStart: occ.occurrenceStart, start, end },
      {
        onSuccess: refetch,
        onError: (err) => {
          revert();
          toast.error(message(err) ?? t`Could not move the event`);
        },
      },
    );
  };
  const dropped = (info: EventDropArg | EventResizeDoneArg) => {
    const occ = info.event.extendedProps.occ as Occurrence;
    const start = info.event.start!;
    const end = info.event.end ?? new Date(start.getTime() + (new Date(occ.end).getTime() - new Date(occ.start).getTime()));
    if (occ.recurring) setMove({ occ, start, end, revert: info.revert });
    else moveTo(occ, start, end, 'series', info.revert);
  };

  if (refusal) return <RefusalState title={t`Calendar unavailable`} message={refusal} />;
  const at = params.get('at');
  return (
    <>
      <div className="calendar-bar">
        <ButtonLink to="/i/calendar/newMeeting" variant="primary" icon={CalendarPlus}>
          <Trans>New event</Trans>
        </ButtonLink>
        <Button variant="secondary" icon={Link2} onPress={() => setFeedOpen(true)}>
          <Trans>Subscribe from another calendar</Trans>
        </Button>
        {permission === 'default' && (
          <Button variant="secondary" icon={BellRing} onPress={() => void Notification.requestPermission().then(setPermission)}>
            <Trans>Reminders need the notification permission</Trans>
          </Button>
        )}
      </div>
      <div className="calendar-frame">
        <FullCalendar
          ref={calendar}
          plugins={[dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin]}
          initialView="timeGridWeek"
          {...(at && { initialDate: at })}
          headerToolbar={{ left: 'prev,next today', center: 'title', right: 'timeGridDay,timeGridWeek,dayGridMonth,listWeek' }}
          locales={Object.values(LOCALES)}
          locale={i18n.locale === 'en' ? 'en' : i18n.locale === 'pt' ? 'pt-br' : i18n.locale}
          timeZone="local"
          scrollTime={`${CALENDAR_DEFAULT_SCROLL}:00`}
          nowIndicator
          // A fixed height: the grid scrolls inside it, so it can open at 08:00.
          height="max(30rem, calc(100dvh - 14rem))"
          selectable
          selectMirror
          events={events}
          select={(s: DateSelectArg) => void navigate(`/i/calendar/newMeeting?start=${s.start.toISOString()}&end=${s.end.toISOString()}${s.allDay ? '&allDay=1' : ''}`)}
          eventClick={(e: EventClickArg) => {
            e.jsEvent.preventDefault();
            setOpen(e.event.extendedProps.occ as Occurrence);
          }}
          eventDrop={dropped}
          eventResize={dropped}
        />
      </div>
      {feedOpen && <FeedDialog domain={domain} onClose={() => setFeedOpen(false)} />}
      {open && <EventDialog domain={domain} occ={open} onClose={() => setOpen(null)} onChanged={refetch} />}
      {move && (
        <ScopeDialog
          title={t`Move the event`}
          onCancel={() => {
            move.revert();
            setMove(null);
          }}
          onChoose={(scope) => {
            moveTo(move.occ, move.start, move.end, scope, move.revert);
            setMove(null);
          }}
        />
      )}
    </>
  );
}

function EventDialog({ domain, occ, onClose, onChanged }: { domain: string; occ: Occurrence; onClose: () => void; onChanged: () => void }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const message = useCalendarMessage();
  const [step, setStep] = useState<'view' | 'editScope' | 'deleteScope' | 'confirmDelete'>('view');
  const remove = trpc.calendar.remove.useMutation({
    onSuccess: () => {
      onChanged();
      onClose();
    },
  });
  const utils = trpc.useUtils();
  const { active } = useCallsState();
  const [joining, setJoining] = useState(false);
  const [joinError, setJoinError] = useState<unknown>(null);
  // Join the meeting's call when it is going on, else start it (the device chooser first); the
  // call is its conversation's, so the chat's call buttons and this one meet in the same room.
  const join = async (conversationId: string) => {
    setJoining(true);
    setJoinError(null);
    try {
      const running = await utils.calls.openInConversation.fetch({ domain, conversationId }, { staleTime: 0 });
      onClose();
      if (running && !running.concluded) await enterCall({ callId: running.id });
      else prepareCall({ domain, conversationId, type: CALL_TYPE.video });
    } catch (err) {
      setJoinError(err);
      setJoining(false);
    }
  };
  const edit = (scope: Scope) =>
    void navigate(`/i/calendar/editMeeting?id=${occ.eventId}&scope=${scope}&occurrence=${new Date(occ.occurrenceStart).toISOString()}`);
  const del = (scope: Scope) => remove.mutate({ domain, eventId: occ.eventId, scope, occurrenceStart: occ.occurrenceStart });
  const when = occ.allDay
    ? i18n.date(new Date(occ.start), { dateStyle: 'full' })
    : `${i18n.date(new Date(occ.start), { dateStyle: 'full', timeStyle: 'short' })} – ${i18n.date(new Date(occ.end), { timeStyle: 'short' })}`;

  if (step === 'editScope') return <ScopeDialog title={t`Edit the event`} onCancel={() => setStep('view')} onChoose={edit} />;
  if (step === 'deleteScope') return <ScopeDialog title={t`Delete the event`} onCancel={() => setStep('view')} onChoose={del} />;
  if (step === 'confirmDelete') {
    return (
      <ConfirmDialog
        title={occ.mine ? t`Delete this event?` : t`Remove yourself from this event?`}
        confirmLabel={occ.mine ? t`Delete` : t`Remove me`}
        danger
        pending={remove.isPending}
        error={message(remove.error)}
        onConfirm={() => del('series')}
        onCancel={() => setStep('view')}
      />
    );
  }
  return (
    <ModalDialog
      title={occ.title}
      onCancel={onClose}
      actions={
        <>
          <Button variant="quiet" onPress={onClose}>
            <Trans>Close</Trans>
          </Button>
          <Button variant="danger" icon={Trash2} onPress={() => setStep(occ.mine && occ.recurring ? 'deleteScope' : 'confirmDelete')}>
            {occ.mine ? <Trans>Delete</Trans> : <Trans>Remove me</Trans>}
          </Button>
          {(occ.mine || occ.recurring) && (
            <Button variant="secondary" icon={Pencil} onPress={() => (occ.recurring ? (occ.mine ? setStep('editScope') : edit('occurrence')) : edit('series'))}>
              <Trans>Edit</Trans>
            </Button>
          )}
          {occ.isMeeting && occ.conversationId && (
            <>
              <Button variant="secondary" icon={MessageSquare} onPress={() => void navigate(`/i/recent/chat/${occ.conversationId}`)}>
                <Trans>Conversation</Trans>
              </Button>
              <Button variant="primary" icon={Video} isDisabled={joining || !!active} onPress={() => void join(occ.conversationId!)}>
                <Trans>Join</Trans>
              </Button>
            </>
          )}
        </>
      }
    >
      <Facts
        items={[
          [t`When`, when],
          occ.recurring && [t`Repeats`, occ.exception ? t`Yes (this occurrence was changed)` : t`Yes`],
          [t`Created by`, occ.creatorName ?? '—'],
          occ.participants.length > 0 && [t`Participants`, occ.participants.map((p) => p.name ?? '—').join(', ')],
          occ.contacts.length > 0 && [t`Contacts`, occ.contacts.map((c) => c.name).join(', ')],
          !!occ.description && [t`Description`, occ.description],
        ]}
      />
      <FormError message={message(remove.error) ?? message(joinError as { message: string } | null)} />
    </ModalDialog>
  );
}

/** The private iCalendar URL (Google Calendar, Outlook, Apple Calendar subscribe to it). */
function FeedDialog({ domain, onClose }: { domain: string; onClose: () => void }) {
  const { t } = useLingui();
  const message = useCalendarMessage();
  const utils = trpc.useUtils();
  const feed = trpc.calendar.feedUrl.useQuery({ domain });
  const rotate = trpc.calendar.rotateFeed.useMutation({ onSuccess: (data) => utils.calendar.feedUrl.setData({ domain }, data) });
  const revoke = trpc.calendar.revokeFeed.useMutation({
    onSuccess: () => {
      toast.ok(t`The address no longer works`);
      void utils.calendar.feedUrl.invalidate();
      onClose();
    },
  });
  return (
    <ModalDialog
      title={t`Subscribe from another calendar`}
      onCancel={onClose}
      actions={
        <>
          <Button variant="quiet" onPress={onClose}>
            <Trans>Close</Trans>
          </Button>
          <Button variant="danger" isPending={revoke.isPending} onPress={() => revoke.mutate({ domain })}>
            <Trans>Turn off</Trans>
          </Button>
          <Button variant="secondary" isPending={rotate.isPending} onPress={() => rotate.mutate({ domain })}>
            <Trans>New address</Trans>
          </Button>
        </>
      }
    >
      <p>
        <Trans>Add this private address to Google Calendar, Outlook or Apple Calendar. Anyone with it sees your events: make a new address if it leaks.</Trans>
      </p>
      {feed.data && <TextField label={t`Private address`} value={feed.data.url} readOnly onFocus={(e) => e.target.select()} />}
      <FormError message={message(feed.error ?? rotate.error ?? revoke.error)} />
    </ModalDialog>
  );
}
