import { DEFAULT_QUEUE } from '../constants';

/** One field of the Contact Us form (spec 3: required, validate e-mail, read-only, min/max size). */
export type ContactUsField = {
  key: string;
  label: string;
  required: boolean;
  validateEmail: boolean;
  readOnly: boolean;
  minSize: number;
  maxSize: number;
};

/** Contact Us settings: name, page title, blocked access, default queue for new requests, fields. */
export type ContactUsSettings = {
  name: string;
  pageTitle: string;
  blocked: boolean;
  defaultQueueKey: string;
  fields: ContactUsField[];
};

const field = (key: string, label: string, extra: Partial<ContactUsField> = {}): ContactUsField => ({
  key,
  label,
  required: true,
  validateEmail: false,
  readOnly: false,
  minSize: 0,
  maxSize: 200,
  ...extra,
});

/** What a new company starts with: name, e-mail, phone and message, into the default queue. */
export function defaultContactUs(companyName: string): ContactUsSettings {
  return {
    name: DEFAULT_QUEUE.name,
    pageTitle: companyName,
    blocked: false,
    defaultQueueKey: DEFAULT_QUEUE.id,
    fields: [
      field('name', 'Nome', { minSize: 2, maxSize: 120 }),
      field('email', 'E-mail', { validateEmail: true, maxSize: 254 }),
      field('phone', 'Telefone', { required: false, maxSize: 32 }),
      field('message', 'Mensagem', { maxSize: 1500 }),
    ],
  };
}
