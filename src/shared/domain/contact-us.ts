import { DEFAULT_QUEUE } from '../constants';
import { COMPANY_DEFAULTS, type CompanyDefaults } from './company-defaults';

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

/**
 * What a new company starts with: name, e-mail, phone and message, into the default queue, labelled
 * in the registering admin's language (Portuguese, the spec's texts, unless given).
 */
export function defaultContactUs(companyName: string, defaults: CompanyDefaults = COMPANY_DEFAULTS.pt): ContactUsSettings {
  const labels = defaults.contactUsLabels;
  return {
    name: defaults.queueName,
    pageTitle: companyName,
    blocked: false,
    defaultQueueKey: DEFAULT_QUEUE.id,
    fields: [
      field('name', labels.name, { minSize: 2, maxSize: 120 }),
      field('email', labels.email, { validateEmail: true, maxSize: 254 }),
      field('phone', labels.phone, { required: false, maxSize: 32 }),
      field('message', labels.message, { maxSize: 1500 }),
    ],
  };
}
