/**
 * The customer's appointment e-mails: an .ics that a calendar app can take (REQUEST with one UID
 * per appointment and the given SEQUENCE, CANCEL to remove it), parsed with a real iCalendar
 * parser; the reminder has no attachment; times are named in the attendant's zone.
 */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { Appointment } from '../../src/generated/prisma/client';
import { appointmentMail } from '../../src/server/modules/appointments/mail';

const a = {
  id: '6f1c1d2e-0000-4000-8000-000000000001', companyId: 'c', attendantId: 'u', customerId: null, customerName: 'Carla', customerEmail: 'carla@example.com',
  start: new Date('2026-12-07T12:00:00Z'), end: new Date('2026-12-07T12:30:00Z'), status: 'booked', bookedStart: new Date('2026-12-07T12:00:00Z'),
  eventId: null, conversationId: null, queueId: null, createdAt: new Date('2026-11-26T10:00:00Z'),
} satisfies Appointment;
const who = { companyName: 'Acme', domain: 'acme', attendantName: 'Ana', publicUrl: 'https://atende.example', lang: 'en' as const };

function parse(ics: string) {
  const cal = new ICAL.Component(ICAL.parse(ics));
  const ev = cal.getFirstSubcomponent('vevent')!;
  return { method: cal.getFirstPropertyValue('method'), uid: ev.getFirstPropertyValue('uid'), sequence: ev.getFirstPropertyValue('sequence'), status: ev.getFirstPropertyValue('status'), start: new ICAL.Event(ev).startDate.toJSDate().toISOString(), end: new ICAL.Event(ev).endDate.toJSDate().toISOString() };
}

describe('appointment e-mails', () => {
  it('confirms with an .ics REQUEST in the attendant zone words', () => {
    const mail = appointmentMail(a, who, 'America/Sao_Paulo', 'booked', 0);
    expect(mail).toMatchObject({ to: 'carla@example.com', subject: 'Appointment confirmed with Acme' });
    expect(mail.text).toContain('09:00');
    expect(mail.text).toContain('(America/Sao_Paulo)');
    expect(mail.text).toContain('https://atende.example/acme');
    expect(mail.attachments![0]!.contentType).toBe('text/calendar; charset=utf-8; method=REQUEST');
    expect(parse(mail.attachments![0]!.content)).toEqual({
      method: 'REQUEST', uid: `appointment-${a.id}@acme`, sequence: 0, status: 'CONFIRMED', start: '2026-12-07T12:00:00.000Z', end: '2026-12-07T12:30:00.000Z',
    });
  });

  it('a change keeps the UID with a higher SEQUENCE; a cancellation is METHOD:CANCEL; a reminder has no attachment', () => {
    const moved = parse(appointmentMail(a, who, 'UTC', 'rescheduled', 42).attachments![0]!.content);
    expect(moved).toMatchObject({ method: 'REQUEST', uid: `appointment-${a.id}@acme`, sequence: 42 });
    const cancel = appointmentMail(a, who, 'UTC', 'cancelled', 43);
    expect(parse(cancel.attachments![0]!.content)).toMatchObject({ method: 'CANCEL', status: 'CANCELLED', uid: `appointment-${a.id}@acme` });
    const reminder = appointmentMail(a, who, 'UTC', 'reminder', 44);
    expect(reminder.subject).toBe('Reminder: your appointment with Acme starts soon');
    expect(reminder.attachments).toBeUndefined();
  });
});
