/**
 * Server-side texts (e-mails and notifications) in the recipient's language: a member's own
 * language setting, the company's language for its customers and contacts (who have no setting
 * we know). One typed dictionary, so a missing translation is a type error, not an English
 * fallback found by a customer. The browser's texts stay in Lingui catalogs; these never reach them.
 */
import { LOCALES } from '../shared/constants';
import { isContentLanguage } from '../shared/domain/company-defaults';
import { baseLanguage } from '../shared/domain/subtitles';

export type Lang = (typeof LOCALES)[number];

const en = {
  hello: 'Hello {name},',
  newMeeting: 'New meeting',
  newEvent: 'New event',
  startsIn: 'Starts in {minutes} min ({time} {zone})',
  startedAt: 'Started at {time} ({zone})',
  inviteSubject: '{company}: invitation to "{title}"',
  inviteUpdatedSubject: '{company}: "{title}" changed',
  inviteCancelledSubject: '{company}: "{title}" cancelled',
  inviteLine: '{inviter} invited you to "{title}".',
  inviteCancelledLine: '"{title}" was cancelled.',
  inviteOccurrenceCancelledSubject: '{company}: "{title}" cancelled on {date}',
  inviteOccurrenceCancelledLine: 'This occurrence of "{title}" was cancelled; the other dates stay as they are.',
  when: 'When: {when}',
  apptBookedSubject: 'Appointment confirmed with {company}',
  apptMovedSubject: 'Appointment with {company} moved',
  apptCancelledSubject: 'Appointment with {company} cancelled',
  apptReminderSubject: 'Reminder: your appointment with {company} starts soon',
  apptYours: 'Your appointment:',
  apptCancelledLine: 'Your appointment was cancelled:',
  apptSoonLine: 'Your appointment starts soon:',
  apptWith: '{when} with {attendant} ({company}).',
  apptManage: 'To change or cancel: {url}',
  apptNew: 'New appointment',
  apptCancelledByCustomer: 'Appointment cancelled by the customer',
  apptMovedByCustomer: 'Appointment moved by the customer',
  apptWaiting: 'Your appointment is waiting',
  incomingCall: 'Incoming call',
  incomingVideoCall: 'Incoming video call',
  callingYou: '{name} is calling you',
  newMessage: 'New message',
};
type Key = keyof typeof en;

const TEXTS: Record<Lang, Record<Key, string>> = {
  en,
  pt: {
    hello: 'Olá {name},',
    newMeeting: 'Nova reunião',
    newEvent: 'Novo compromisso',
    startsIn: 'Começa em {minutes} min ({time} {zone})',
    startedAt: 'Começou às {time} ({zone})',
    inviteSubject: '{company}: convite para "{title}"',
    inviteUpdatedSubject: '{company}: "{title}" foi alterado',
    inviteCancelledSubject: '{company}: "{title}" foi cancelado',
    inviteLine: '{inviter} convidou você para "{title}".',
    inviteCancelledLine: '"{title}" foi cancelado.',
    inviteOccurrenceCancelledSubject: '{company}: "{title}" cancelado em {date}',
    inviteOccurrenceCancelledLine: 'Esta ocorrência de "{title}" foi cancelada; as outras datas continuam como estão.',
    when: 'Quando: {when}',
    apptBookedSubject: 'Agendamento confirmado com {company}',
    apptMovedSubject: 'Agendamento com {company} remarcado',
    apptCancelledSubject: 'Agendamento com {company} cancelado',
    apptReminderSubject: 'Lembrete: seu agendamento com {company} começa em breve',
    apptYours: 'Seu agendamento:',
    apptCancelledLine: 'Seu agendamento foi cancelado:',
    apptSoonLine: 'Seu agendamento começa em breve:',
    apptWith: '{when} com {attendant} ({company}).',
    apptManage: 'Para remarcar ou cancelar: {url}',
    apptNew: 'Novo agendamento',
    apptCancelledByCustomer: 'Agendamento cancelado pelo cliente',
    apptMovedByCustomer: 'Agendamento remarcado pelo cliente',
    apptWaiting: 'Seu agendamento está esperando',
    incomingCall: 'Chamada recebida',
    incomingVideoCall: 'Chamada de vídeo recebida',
    callingYou: '{name} está chamando você',
    newMessage: 'Nova mensagem',
  },
  es: {
    hello: 'Hola {name}:',
    newMeeting: 'Nueva reunión',
    newEvent: 'Nuevo evento',
    startsIn: 'Empieza en {minutes} min ({time} {zone})',
    startedAt: 'Empezó a las {time} ({zone})',
    inviteSubject: '{company}: invitación a "{title}"',
    inviteUpdatedSubject: '{company}: "{title}" ha cambiado',
    inviteCancelledSubject: '{company}: "{title}" se ha cancelado',
    inviteLine: '{inviter} te ha invitado a "{title}".',
    inviteCancelledLine: '"{title}" se ha cancelado.',
    inviteOccurrenceCancelledSubject: '{company}: "{title}" cancelado el {date}',
    inviteOccurrenceCancelledLine: 'Esta fecha de "{title}" se ha cancelado; las demás siguen igual.',
    when: 'Cuándo: {when}',
    apptBookedSubject: 'Cita confirmada con {company}',
    apptMovedSubject: 'Cita con {company} cambiada',
    apptCancelledSubject: 'Cita con {company} cancelada',
    apptReminderSubject: 'Recordatorio: tu cita con {company} empieza pronto',
    apptYours: 'Tu cita:',
    apptCancelledLine: 'Tu cita se ha cancelado:',
    apptSoonLine: 'Tu cita empieza pronto:',
    apptWith: '{when} con {attendant} ({company}).',
    apptManage: 'Para cambiarla o cancelarla: {url}',
    apptNew: 'Nueva cita',
    apptCancelledByCustomer: 'Cita cancelada por el cliente',
    apptMovedByCustomer: 'Cita cambiada por el cliente',
    apptWaiting: 'Tu cita te está esperando',
    incomingCall: 'Llamada entrante',
    incomingVideoCall: 'Videollamada entrante',
    callingYou: '{name} te está llamando',
    newMessage: 'Nuevo mensaje',
  },
  it: {
    hello: 'Ciao {name},',
    newMeeting: 'Nuova riunione',
    newEvent: 'Nuovo evento',
    startsIn: 'Inizia tra {minutes} min ({time} {zone})',
    startedAt: 'È iniziato alle {time} ({zone})',
    inviteSubject: '{company}: invito a "{title}"',
    inviteUpdatedSubject: '{company}: "{title}" è cambiato',
    inviteCancelledSubject: '{company}: "{title}" è stato annullato',
    inviteLine: '{inviter} ti ha invitato a "{title}".',
    inviteCancelledLine: '"{title}" è stato annullato.',
    inviteOccurrenceCancelledSubject: '{company}: "{title}" annullato il {date}',
    inviteOccurrenceCancelledLine: 'Questa occorrenza di "{title}" è stata annullata; le altre date restano invariate.',
    when: 'Quando: {when}',
    apptBookedSubject: 'Appuntamento confermato con {company}',
    apptMovedSubject: 'Appuntamento con {company} spostato',
    apptCancelledSubject: 'Appuntamento con {company} annullato',
    apptReminderSubject: 'Promemoria: il tuo appuntamento con {company} inizia a breve',
    apptYours: 'Il tuo appuntamento:',
    apptCancelledLine: 'Il tuo appuntamento è stato annullato:',
    apptSoonLine: 'Il tuo appuntamento inizia a breve:',
    apptWith: '{when} con {attendant} ({company}).',
    apptManage: 'Per spostarlo o annullarlo: {url}',
    apptNew: 'Nuovo appuntamento',
    apptCancelledByCustomer: 'Appuntamento annullato dal cliente',
    apptMovedByCustomer: 'Appuntamento spostato dal cliente',
    apptWaiting: 'Il tuo appuntamento ti aspetta',
    incomingCall: 'Chiamata in arrivo',
    incomingVideoCall: 'Videochiamata in arrivo',
    callingYou: '{name} ti sta chiamando',
    newMessage: 'Nuovo messaggio',
  },
  de: {
    hello: 'Hallo {name},',
    newMeeting: 'Neues Meeting',
    newEvent: 'Neuer Termin',
    startsIn: 'Beginnt in {minutes} Min. ({time} {zone})',
    startedAt: 'Hat um {time} begonnen ({zone})',
    inviteSubject: '{company}: Einladung zu „{title}“',
    inviteUpdatedSubject: '{company}: „{title}“ wurde geändert',
    inviteCancelledSubject: '{company}: „{title}“ wurde abgesagt',
    inviteLine: '{inviter} hat Sie zu „{title}“ eingeladen.',
    inviteCancelledLine: '„{title}“ wurde abgesagt.',
    inviteOccurrenceCancelledSubject: '{company}: „{title}“ am {date} abgesagt',
    inviteOccurrenceCancelledLine: 'Dieser Termin der Reihe „{title}“ wurde abgesagt; die anderen Termine bleiben bestehen.',
    when: 'Wann: {when}',
    apptBookedSubject: 'Termin bei {company} bestätigt',
    apptMovedSubject: 'Termin bei {company} verschoben',
    apptCancelledSubject: 'Termin bei {company} abgesagt',
    apptReminderSubject: 'Erinnerung: Ihr Termin bei {company} beginnt bald',
    apptYours: 'Ihr Termin:',
    apptCancelledLine: 'Ihr Termin wurde abgesagt:',
    apptSoonLine: 'Ihr Termin beginnt bald:',
    apptWith: '{when} mit {attendant} ({company}).',
    apptManage: 'Zum Verschieben oder Absagen: {url}',
    apptNew: 'Neuer Termin',
    apptCancelledByCustomer: 'Termin vom Kunden abgesagt',
    apptMovedByCustomer: 'Termin vom Kunden verschoben',
    apptWaiting: 'Ihr Termin wartet',
    incomingCall: 'Eingehender Anruf',
    incomingVideoCall: 'Eingehender Videoanruf',
    callingYou: '{name} ruft Sie an',
    newMessage: 'Neue Nachricht',
  },
};

/** The text of `key` in `lang`, its {placeholders} filled. */
export function serverText(lang: Lang, key: Key, params: Record<string, string | number> = {}) {
  return TEXTS[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** A member's language: their setting ('pt-BR' counts as pt), else English (spec 1's default). */
export const userLanguage = (user: { language?: string | null } | null | undefined): Lang => baseLanguage(user?.language) ?? 'en';

/** A company's language (for its customers and contacts): the one it was created in, else the spec's Portuguese. */
export function companyLanguage(company: { settings: unknown }): Lang {
  const language = ((company.settings ?? {}) as Record<string, unknown>).language;
  return isContentLanguage(language) ? language : 'pt';
}

const INTL: Record<Lang, string> = { en: 'en-GB', pt: 'pt-BR', es: 'es-ES', it: 'it-IT', de: 'de-DE' };

/** A moment as the reader says it, in a zone they are told ("segunda-feira, 7 de dezembro de 2026 09:00 (America/Sao_Paulo)"). */
export function formatWhen(at: Date, timeZone: string, lang: Lang) {
  return `${new Intl.DateTimeFormat(INTL[lang], { timeZone, dateStyle: 'full', timeStyle: 'short' }).format(at)} (${timeZone})`;
}

/** A day as the reader says it, in the event's zone ("7 de dez. de 2026"), for a subject line. */
export function formatDay(at: Date, timeZone: string, lang: Lang) {
  return new Intl.DateTimeFormat(INTL[lang], { timeZone, dateStyle: 'medium' }).format(at);
}
