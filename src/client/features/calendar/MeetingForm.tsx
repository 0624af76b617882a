/**
 * Creating (/i/calendar/newMeeting) and editing (/i/calendar/editMeeting?id=&scope=&occurrence=)
 * an event or meeting: title, times in the user's zone, all day, repetition (the spec's options),
 * participants among the company's members and its contacts (invited by e-mail), reminder. Editing one occurrence changes its title,
 * description and times only; the series form changes everything.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { REPEAT_OPTIONS, WEEKDAYS, type RepeatOption, type WeekdayKey } from '../../../shared/domain/recurrence';
import { trpc } from '../../trpc';
import { Button, Checkbox, FormError, LoadingSkeleton, SelectField, SubmitButton, Switch, TextAreaField, TextField } from '../../ui';
import { MemberScreen } from '../service/MemberScreen';
import { browserTimeZone, useCalendarMessage } from './texts';

const pad = (n: number) => String(n).padStart(2, '0');
const localDate = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const localTime = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;
const fromLocal = (date: string, time: string) => new Date(`${date}T${time || '00:00'}`);

interface Values {
  title: string;
  description: string;
  date: string;
  startTime: string;
  endTime: string;
  allDay: boolean;
  isMeeting: boolean;
  remind: boolean;
  repeat: RepeatOption | '';
  weekdays: WeekdayKey[];
  participantIds: string[];
  /** Contacts of the company (not members), with their names for the chosen list. */
  contacts: { contactId: string; name: string }[];
}

function initialValues(params: URLSearchParams): Values {
  const start = params.get('start') ? new Date(params.get('start')!) : nextHour();
  const end = params.get('end') ? new Date(params.get('end')!) : new Date(start.getTime() + 3_600_000);
  return {
    title: '', description: '', date: localDate(start), startTime: localTime(start), endTime: localTime(end), allDay: params.get('allDay') === '1',
    isMeeting: true, remind: true, repeat: '', weekdays: [], participantIds: [], contacts: [],
  };
}
function nextHour() {
  const d = new Date();
  d.setMinutes(0, 0, 0);
  d.setHours(d.getHours() + 1);
  return d;
}

export function NewMeetingPage() {
  const { t } = useLingui();
  const [params] = useSearchParams();
  return (
    <MemberScreen title={t`New meeting`} className="calendar-form-page">
      {(company) => <MeetingForm domain={company.domain} initial={initialValues(params)} />}
    </MemberScreen>
  );
}

export function EditMeetingPage() {
  const { t } = useLingui();
  return <MemberScreen title={t`Edit meeting`} className="calendar-form-page">{(company) => <EditLoader domain={company.domain} />}</MemberScreen>;
}

function EditLoader({ domain }: { domain: string }) {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const message = useCalendarMessage();
  const eventId = params.get('id') ?? '';
  const scope = params.get('scope') === 'occurrence' ? 'occurrence' : 'series';
  const occurrence = params.get('occurrence');
  const event = trpc.calendar.get.useQuery({ domain, eventId }, { enabled: /^[0-9a-f-]{36}$/.test(eventId), retry: false });
  // The occurrence as it is now (it may have been moved already): a range around its rule time.
  const occ = trpc.calendar.list.useQuery(
    { domain, from: new Date(new Date(occurrence ?? 0).getTime() - 31 * 86_400_000), to: new Date(new Date(occurrence ?? 0).getTime() + 31 * 86_400_000) },
    { enabled: !!occurrence && scope === 'occurrence', retry: false },
  );
  if (!/^[0-9a-f-]{36}$/.test(eventId)) return <FormError message={t`Event not found`} />;
  if (event.isError || occ.isError) return <FormError message={message(event.error ?? occ.error)} />;
  if (!event.data || (scope === 'occurrence' && occ.isPending)) return <LoadingSkeleton variant="form" />;
  const e = event.data;
  const one = scope === 'occurrence' ? occ.data?.find((o) => o.eventId === eventId && new Date(o.occurrenceStart).toISOString() === occurrence) : undefined;
  const start = new Date(one?.start ?? e.start);
  const end = new Date(one?.end ?? e.end);
  const initial: Values = {
    title: one?.title ?? e.title, description: one?.description ?? e.description, date: localDate(start), startTime: localTime(start), endTime: localTime(end),
    allDay: e.allDay, isMeeting: e.isMeeting, remind: e.remind, repeat: (e.repeat as RepeatOption | null) ?? '', weekdays: e.weekdays,
    participantIds: e.participants.map((p) => p.userId),
    contacts: e.contacts.map((c) => ({ contactId: c.contactId, name: c.name })),
  };
  return <MeetingForm domain={domain} initial={initial} edit={{ eventId, scope, occurrenceStart: scope === 'occurrence' ? occurrence ?? undefined : undefined, recurring: !!e.rrule, mine: e.mine }} />;
}

function MeetingForm({ domain, initial, edit }: { domain: string; initial: Values; edit?: { eventId: string; scope: 'occurrence' | 'series'; occurrenceStart?: string; recurring: boolean; mine: boolean } }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const message = useCalendarMessage();
  const [v, setV] = useState(initial);
  useEffect(() => setV(initial), [initial.title, initial.date]); // eslint-disable-line react-hooks/exhaustive-deps
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setV((old) => ({ ...old, [key]: value }));
  const colleagues = trpc.calendar.colleagues.useQuery({ domain });
  const done = (start: Date) => void navigate(`/i/calendar?at=${start.toISOString()}`);
  const create = trpc.calendar.create.useMutation();
  const update = trpc.calendar.update.useMutation();
  const oneOccurrence = edit?.scope === 'occurrence' && edit.recurring;
  const repeatLabels: Record<RepeatOption, string> = useMemo(
    () => ({ todos: t`Every day`, segsex: t`Weekdays (Monday to Friday)`, personalizarsemana: t`On chosen weekdays`, mensal: t`Every month`, anual: t`Every year` }),
    [t],
  );
  const dayLabels: Record<WeekdayKey, string> = { seg: t`Mon`, ter: t`Tue`, qua: t`Wed`, qui: t`Thu`, sex: t`Fri`, sab: t`Sat`, dom: t`Sun` };

  const submit = () => {
    const start = fromLocal(v.date, v.allDay ? '00:00' : v.startTime);
    let end = v.allDay ? new Date(start.getTime() + 86_400_000) : fromLocal(v.date, v.endTime);
    if (!v.allDay && end <= start) end = new Date(end.getTime() + 86_400_000); // ends after midnight
    const times = { title: v.title, description: v.description, start, end };
    const series = {
      allDay: v.allDay, isMeeting: v.isMeeting, remind: v.remind, participantIds: v.participantIds, contactIds: v.contacts.map((c) => c.contactId),
      repeat: v.repeat || null, ...(v.repeat === 'personalizarsemana' && { weekdays: v.weekdays }),
    };
    const onSuccess = () => done(start);
    if (!edit) create.mutate({ domain, timeZone: browserTimeZone(), ...times, ...series }, { onSuccess });
    else if (oneOccurrence) update.mutate({ domain, eventId: edit.eventId, scope: 'occurrence', occurrenceStart: edit.occurrenceStart, ...times }, { onSuccess });
    else update.mutate({ domain, eventId: edit.eventId, scope: 'series', ...(edit.occurrenceStart && { occurrenceStart: edit.occurrenceStart }), ...times, ...series }, { onSuccess });
  };
  const error = message(create.error ?? update.error);

  return (
    <form
      className="calendar-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {edit && (
        <p className="muted">{oneOccurrence ? <Trans>You are changing only this occurrence.</Trans> : edit.recurring ? <Trans>You are changing the whole series.</Trans> : null}</p>
      )}
      <TextField label={t`Title`} value={v.title} onChange={(e) => set('title', e.target.value)} maxLength={200} hint={t`Left empty, it is saved as '( Sem Título )'`} />
      <div className="calendar-form-times">
        <TextField label={t`Date`} type="date" required value={v.date} onChange={(e) => set('date', e.target.value)} />
        {!v.allDay && <TextField label={t`Starts`} type="time" required value={v.startTime} onChange={(e) => set('startTime', e.target.value)} />}
        {!v.allDay && <TextField label={t`Ends`} type="time" required value={v.endTime} onChange={(e) => set('endTime', e.target.value)} />}
      </div>
      <TextAreaField label={t`Description`} value={v.description} onChange={(e) => set('description', e.target.value)} maxLength={5000} />
      {!oneOccurrence && (
        <>
          <Switch label={t`All day`} checked={v.allDay} onChange={(on) => set('allDay', on)} />
          <Switch label={t`Meeting`} checked={v.isMeeting} onChange={(on) => set('isMeeting', on)} />
          <Switch label={t`Remind me before it starts`} checked={v.remind} onChange={(on) => set('remind', on)} />
          <SelectField
            label={t`Repeat`}
            value={v.repeat}
            onChange={(e) => set('repeat', e.target.value as RepeatOption | '')}
            options={[{ value: '', label: t`Does not repeat` }, ...REPEAT_OPTIONS.map((r) => ({ value: r, label: repeatLabels[r] }))]}
          />
          {v.repeat === 'personalizarsemana' && (
            <fieldset className="calendar-weekdays">
              <legend>
                <Trans>Weekdays</Trans>
              </legend>
              {WEEKDAYS.map((d) => (
                <Checkbox key={d} label={dayLabels[d]} checked={v.weekdays.includes(d)} onChange={(on) => set('weekdays', on ? [...v.weekdays, d] : v.weekdays.filter((x) => x !== d))} />
              ))}
            </fieldset>
          )}
          <fieldset className="calendar-participants">
            <legend>
              <Trans>Participants</Trans>
            </legend>
            {colleagues.isPending && <LoadingSkeleton variant="list" />}
            {colleagues.data?.length === 0 && (
              <p className="muted">
                <Trans>No colleagues to invite yet.</Trans>
              </p>
            )}
            {colleagues.data?.map((c) => (
              <Checkbox
                key={c.userId}
                label={c.name ?? '—'}
                checked={v.participantIds.includes(c.userId)}
                onChange={(on) => set('participantIds', on ? [...v.participantIds, c.userId] : v.participantIds.filter((x) => x !== c.userId))}
              />
            ))}
          </fieldset>
          <ContactPicker domain={domain} chosen={v.contacts} onChange={(contacts) => set('contacts', contacts)} />
        </>
      )}
      <FormError message={error} />
      <div className="form-actions">
        <Button variant="quiet" onPress={() => void navigate('/i/calendar')}>
          <Trans>Cancel</Trans>
        </Button>
        <SubmitButton pending={create.isPending || update.isPending}>
          <Trans>Save</Trans>
        </SubmitButton>
      </div>
    </form>
  );
}

/** The company's contacts (customers, partners: not members), found by name or e-mail; they get an e-mail invitation. */
function ContactPicker({ domain, chosen, onChange }: { domain: string; chosen: Values['contacts']; onChange: (c: Values['contacts']) => void }) {
  const { t } = useLingui();
  const [q, setQ] = useState('');
  const found = trpc.contacts.list.useQuery({ domain, q: q.trim() || undefined, limit: 20 }, { placeholderData: (old) => old });
  const chosenIds = new Set(chosen.map((c) => c.contactId));
  const others = (found.data?.items ?? []).filter((c) => !chosenIds.has(c.id));
  return (
    <fieldset className="calendar-participants calendar-contacts">
      <legend>
        <Trans>Contacts</Trans>
      </legend>
      <p className="muted">
        <Trans>Contacts are invited by e-mail, with the event for their own calendar.</Trans>
      </p>
      {chosen.map((c) => (
        <Checkbox key={c.contactId} label={c.name} checked onChange={() => onChange(chosen.filter((x) => x.contactId !== c.contactId))} />
      ))}
      <TextField label={t`Find a contact`} type="search" value={q} onChange={(e) => setQ(e.target.value)} maxLength={100} />
      {found.isPending && <LoadingSkeleton variant="list" />}
      {found.data && others.length === 0 && (
        <p className="muted">
          <Trans>No contacts found.</Trans>
        </p>
      )}
      {others.map((c) => (
        <Checkbox
          key={c.id}
          label={c.email ? `${c.name} (${c.email})` : c.name}
          checked={false}
          onChange={(on) => on && onChange([...chosen, { contactId: c.id, name: c.name }])}
        />
      ))}
    </fieldset>
  );
}
