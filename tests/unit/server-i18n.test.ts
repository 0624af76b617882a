/**
 * Server texts in the recipient's language (src/server/i18n.ts): a member's own setting, the
 * company's language for its customers and contacts; every language has every text.
 */
import { describe, expect, it } from 'vitest';
import { appointmentMail } from '../../src/server/modules/appointments/mail';
import { inviteMail } from '../../src/server/modules/calendar/invite-mail';
import { companyLanguage, formatWhen, serverText, userLanguage } from '../../src/server/i18n';
import { LOCALES } from '../../src/shared/constants';

describe('server texts', () => {
  it('a pt user gets the pt text, pt-BR counts as pt, an unknown or missing setting gets English', () => {
    expect(serverText(userLanguage({ language: 'pt' }), 'startsIn', { minutes: 8, time: '09:00', zone: 'America/Sao_Paulo' })).toBe('Começa em 8 min (09:00 America/Sao_Paulo)');
    expect(userLanguage({ language: 'pt-BR' })).toBe('pt');
    expect(userLanguage({ language: 'fr' })).toBe('en');
    expect(userLanguage({ language: null })).toBe('en');
    expect(serverText('en', 'newMeeting')).toBe('New meeting');
    expect(serverText('de', 'newMeeting')).toBe('Neues Meeting');
  });

  it("a push to someone with no tab open speaks their language (calls and messages)", () => {
    expect(serverText('pt', 'callingYou', { name: 'Ana' })).toBe('Ana está chamando você');
    expect(serverText('es', 'incomingVideoCall')).toBe('Videollamada entrante');
    expect(serverText('en', 'newMessage')).toBe('New message');
  });

  it("customers and contacts get the company's language; a company from before the setting, Portuguese", () => {
    expect(companyLanguage({ settings: { language: 'es' } })).toBe('es');
    expect(companyLanguage({ settings: {} })).toBe('pt');
    expect(companyLanguage({ settings: null })).toBe('pt');
  });

  it('every language fills every placeholder of every text', () => {
    for (const lang of LOCALES) {
      const text = serverText(lang, 'apptWith', { when: 'W', attendant: 'A', company: 'C' });
      expect(text, lang).not.toMatch(/[{}]/);
      expect(formatWhen(new Date('2026-12-07T12:00:00Z'), 'America/Sao_Paulo', lang), lang).toMatch(/0?9[:.]00/);
    }
  });

  it("an appointment's and an invitation's e-mails are written in the language given", () => {
    const a = {
      id: '6f1c1d2e-0000-4000-8000-000000000001', companyId: 'c', attendantId: 'u', customerId: null, customerName: 'Carla', customerEmail: 'carla@example.com',
      start: new Date('2026-12-07T12:00:00Z'), end: new Date('2026-12-07T12:30:00Z'), status: 'booked', bookedStart: new Date('2026-12-07T12:00:00Z'),
      eventId: null, conversationId: null, createdAt: new Date('2026-11-26T10:00:00Z'),
    };
    const pt = appointmentMail(a as never, { companyName: 'Acme', domain: 'acme', attendantName: 'Ana', publicUrl: 'https://x', cancelUrl: 'https://x/c', lang: 'pt' }, 'America/Sao_Paulo', 'booked', 0);
    expect(pt.subject).toBe('Agendamento confirmado com Acme');
    expect(pt.text).toContain('Olá Carla,');
    expect(pt.text).toContain('Para remarcar ou cancelar: https://x/c');
    const e = { id: 'e1', title: 'Kick-off', description: '', start: a.start, end: a.end, timeZone: 'Europe/Berlin', allDay: false, rrule: null };
    const it_ = inviteMail(e, { name: 'Lia', email: 'lia@example.com' }, { lang: 'it', companyName: 'Acme', domain: 'acme', inviterName: 'Ana', sequence: 0 }, 'invited');
    expect(it_.subject).toBe('Acme: invito a "Kick-off"');
    expect(it_.text).toContain('Ana ti ha invitato a "Kick-off".');
  });
});
