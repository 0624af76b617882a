/**
 * Choosing an appointment: the attendant, a free slot (two weeks at a time, shown in the viewer's
 * own zone and language), then the customer's name and e-mail. Used by a member booking for a
 * customer (/i/schedule) and by a visitor on the company's public page (/{emp}/book); the caller
 * passes the queries and the mutation of its side.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Button, EmptyState, FormError, LoadingSkeleton, ModalDialog, SelectField, TextField } from '../../ui';
import { browserTimeZone, useCalendarMessage } from './texts';

export interface SlotLike {
  start: string | Date;
  end: string | Date;
}

const DAY = 86_400_000;
export const SPAN_DAYS = 14;

/** The range of the page of slots `page` steps of two weeks from now. */
export function slotRange(page: number, now = Date.now()) {
  const from = new Date(now + page * SPAN_DAYS * DAY);
  return { from: from.toISOString(), to: new Date(from.getTime() + SPAN_DAYS * DAY).toISOString() };
}

export function SlotGrid({ slots, isPending, value, onChange, page, onPage }: {
  slots: SlotLike[] | undefined;
  isPending: boolean;
  value: string | null;
  onChange: (start: string) => void;
  page: number;
  onPage: (page: number) => void;
}) {
  const { t, i18n } = useLingui();
  const days = useMemo(() => {
    const byDay = new Map<string, SlotLike[]>();
    for (const s of slots ?? []) {
      const key = i18n.date(new Date(s.start), { weekday: 'long', day: 'numeric', month: 'long' });
      byDay.set(key, [...(byDay.get(key) ?? []), s]);
    }
    return [...byDay.entries()];
  }, [slots, i18n]);
  return (
    <div className="schedule-slots">
      <div className="schedule-slots-nav">
        <Button variant="quiet" size="small" icon={ChevronLeft} isDisabled={page === 0} onPress={() => onPage(page - 1)}>
          <Trans>Earlier</Trans>
        </Button>
        {/* Times are the viewer's own: name the zone so nobody has to guess. */}
        <span className="muted">{browserTimeZone()}</span>
        <Button variant="quiet" size="small" icon={ChevronRight} onPress={() => onPage(page + 1)}>
          <Trans>Later</Trans>
        </Button>
      </div>
      {isPending ? (
        <LoadingSkeleton variant="list" rows={3} label={t`Loading free times…`} />
      ) : days.length === 0 ? (
        <EmptyState title={t`No free times in these two weeks`} description={t`Look at later dates.`} />
      ) : (
        days.map(([day, list]) => (
          <fieldset key={day} className="schedule-day">
            <legend>{day}</legend>
            <div className="schedule-day-slots">
              {list.map((s) => {
                const iso = new Date(s.start).toISOString();
                return (
                  <Button key={iso} size="small" variant={value === iso ? 'primary' : 'secondary'} aria-pressed={value === iso} onPress={() => onChange(iso)}>
                    {i18n.date(new Date(s.start), { hour: '2-digit', minute: '2-digit' })}
                  </Button>
                );
              })}
            </div>
          </fieldset>
        ))
      )}
    </div>
  );
}

/** With whom (a person or a queue, by key) + slot + name + e-mail; `book` is the side's mutation. */
export function BookingForm({ choices, useSlots, book, pending, error, known }: {
  choices: { key: string; name: string }[];
  useSlots: (key: string, range: { from: string; to: string }) => { data?: { slots: SlotLike[] }; isPending: boolean; error?: { message: string } | null };
  book: (v: { key: string; start: string; name: string; email: string }) => void;
  pending: boolean;
  error: string | null;
  known?: { name?: string; email?: string };
}) {
  const { t } = useLingui();
  const [key, setKey] = useState(choices[0]?.key ?? '');
  const [page, setPage] = useState(0);
  const [range] = useState(() => ({ now: Date.now() }));
  const [start, setStart] = useState<string | null>(null);
  const [name, setName] = useState(known?.name ?? '');
  const [email, setEmail] = useState(known?.email ?? '');
  const [missing, setMissing] = useState(false);
  const slots = useSlots(key, slotRange(page, range.now));
  return (
    <form
      className="settings-form schedule-book"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!start || !name.trim() || !email.trim()) return setMissing(true);
        setMissing(false);
        book({ key, start, name: name.trim(), email: email.trim() });
      }}
    >
      {choices.length > 1 && (
        <SelectField
          label={t`With`}
          options={choices.map((a) => ({ value: a.key, label: a.name }))}
          value={key}
          onChange={(e) => {
            setKey(e.target.value);
            setStart(null);
          }}
        />
      )}
      <SlotGrid slots={slots.data?.slots} isPending={slots.isPending} value={start} onChange={setStart} page={page} onPage={setPage} />
      <TextField label={t`Name`} value={name} maxLength={120} autoComplete="name" onChange={(e) => setName(e.target.value)} />
      <TextField label={t`E-mail`} type="email" value={email} maxLength={200} autoComplete="email" onChange={(e) => setEmail(e.target.value)} />
      <FormError message={missing ? (start ? t`Fill in all fields` : t`Choose a time`) : (error ?? slots.error?.message ?? null)} />
      <div className="form-actions">
        <Button type="submit" variant="primary" isPending={pending}>
          <Trans>Book</Trans>
        </Button>
      </div>
    </form>
  );
}

type SlotsQuery = { data?: { slots: SlotLike[] }; isPending: boolean; error: { message: string } | null };

/**
 * "Move to another time": two weeks of free times at a time and the move. Used by the member
 * moving an appointment (/i/schedule) and by the customer through their e-mail link; each passes
 * its side's query of the free times (`useSlots`, called as a hook on every render) and its move.
 */
export function MoveToSlotDialog({ title, useSlots, move, onMove, onClose }: {
  title: string;
  useSlots: (range: { from: string; to: string }) => SlotsQuery;
  move: { isPending: boolean; error: { message: string } | null };
  onMove: (start: string) => void;
  onClose: () => void;
}) {
  const message = useCalendarMessage();
  const [page, setPage] = useState(0);
  const [now] = useState(() => Date.now());
  const [start, setStart] = useState<string | null>(null);
  const slots = useSlots(slotRange(page, now));
  return (
    <ModalDialog
      title={title}
      onCancel={onClose}
      actions={
        <>
          <Button variant="quiet" onPress={onClose}><Trans>Close</Trans></Button>
          <Button variant="primary" isDisabled={!start} isPending={move.isPending} onPress={() => start && onMove(start)}>
            <Trans>Move here</Trans>
          </Button>
        </>
      }
    >
      <SlotGrid slots={slots.data?.slots} isPending={slots.isPending} value={start} onChange={setStart} page={page} onPage={setPage} />
      <FormError message={message(move.error ?? slots.error)} />
    </ModalDialog>
  );
}
