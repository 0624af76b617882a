/**
 * What a company starts with, in the language of the admin who registers it (issue 13): the
 * greeting, the default queue's name, the profile names and the Contact Us labels.
 * Portuguese carries the spec's texts verbatim; the other languages are real translations. They
 * are written into the company's rows once, at registration, and stay editable there; the
 * keys (queue 'faleconosco', profiles A01/M01) and the groups 'member' and 'admin' (spec 9) do not change.
 * [nomecliente] and [nomeempresa] are the greeting's placeholders in every language (the
 * settings screen explains them).
 */
import { DEFAULT_GREETING, DEFAULT_QUEUE, LOCALES } from '../constants';

export type ContentLanguage = (typeof LOCALES)[number];

export interface CompanyDefaults {
  greeting: string;
  queueName: string;
  profileNames: { admin: string; member: string };
  contactUsLabels: { name: string; email: string; phone: string; message: string };
}

export const COMPANY_DEFAULTS: Record<ContentLanguage, CompanyDefaults> = {
  pt: {
    greeting: DEFAULT_GREETING,
    queueName: DEFAULT_QUEUE.name,
    profileNames: { admin: 'Administrador', member: 'Membro' },
    contactUsLabels: { name: 'Nome', email: 'E-mail', phone: 'Telefone', message: 'Mensagem' },
  },
  en: {
    greeting: "Hello [nomecliente], welcome to [nomeempresa]'s customer service. Please wait a moment, we will be with you shortly!",
    queueName: 'Contact Us',
    profileNames: { admin: 'Administrator', member: 'Member' },
    contactUsLabels: { name: 'Name', email: 'E-mail', phone: 'Phone', message: 'Message' },
  },
  es: {
    greeting: 'Hola [nomecliente], bienvenido(a) al canal de atención de la empresa [nomeempresa]. ¡Espera un momento, enseguida te atenderemos!',
    queueName: 'Contáctanos',
    profileNames: { admin: 'Administrador', member: 'Miembro' },
    contactUsLabels: { name: 'Nombre', email: 'Correo electrónico', phone: 'Teléfono', message: 'Mensaje' },
  },
  it: {
    greeting: "Ciao [nomecliente], benvenuto/a nel canale di assistenza dell'azienda [nomeempresa]. Attendi un momento, ti risponderemo al più presto!",
    queueName: 'Contattaci',
    profileNames: { admin: 'Amministratore', member: 'Membro' },
    contactUsLabels: { name: 'Nome', email: 'E-mail', phone: 'Telefono', message: 'Messaggio' },
  },
  de: {
    greeting: 'Hallo [nomecliente], willkommen beim Kundenservice von [nomeempresa]. Bitte warten Sie einen Moment, wir sind gleich für Sie da!',
    queueName: 'Kontakt',
    profileNames: { admin: 'Administrator', member: 'Mitglied' },
    contactUsLabels: { name: 'Name', email: 'E-Mail', phone: 'Telefon', message: 'Nachricht' },
  },
};

export function isContentLanguage(value: unknown): value is ContentLanguage {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * The defaults for a language tag ('pt-BR' → pt); anything else gets English, the product's
 * default language (spec 1).
 */
export function companyDefaults(language: string | null | undefined): CompanyDefaults {
  const base = language?.toLowerCase().split('-')[0];
  return COMPANY_DEFAULTS[isContentLanguage(base) ? base : 'en'];
}
