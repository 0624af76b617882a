import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { InfoMessage } from '../../../shared/domain/info-messages';
import type { SlaColumn } from '../../../shared/domain/sla';

/** Conversation states (spec 4), as the spec names them. */
export const STATE_LABELS: Record<number, MessageDescriptor> = {
  0: msg`Waiting for service`,
  1: msg`Being served`,
  2: msg`Waiting for a third party`,
  9999: msg`Concluded`,
};
export const STATE_BADGE: Record<number, string> = { 0: 'badge badge-warn', 1: 'badge badge-ok', 2: 'badge', 9999: 'badge' };

export const SLA_COLUMN_LABELS: Record<SlaColumn, MessageDescriptor> = {
  noDate: msg`No due date`,
  proposal: msg`Proposal waiting for the customer`,
  onTime: msg`On time`,
  dueToday: msg`Due within 24 hours`,
  overdue: msg`Overdue`,
  concluded: msg`Concluded (last 7 days)`,
};

export const formatProtocol = (protocol: string) => protocol.replace(/^(\d{5})(\d{5})(\d{5})$/, '$1-$2-$3');

/**
 * An info message of customer service in the reader's language, from its kind and parameters
 * (Message.data); null for kinds of other modules. The conversation view of the chat can use it
 * for these kinds.
 */
export function describeServiceInfo(i18n: I18n, data: unknown): string | null {
  const m = data as InfoMessage | null;
  if (!m || typeof m !== 'object' || !('info' in m)) return null;
  switch (m.info) {
    case 'greeting':
      return m.params.text;
    case 'taken': {
      const { name } = m.params;
      return i18n._(msg`${name} took the service`);
    }
    case 'leftQueue': {
      const { name } = m.params;
      return i18n._(msg`${name} left the queue`);
    }
    case 'waitingThirdParty': {
      const { name } = m.params;
      return i18n._(msg`${name} is waiting for a third party`);
    }
    case 'resumed': {
      const { name } = m.params;
      return i18n._(msg`${name} resumed the service`);
    }
    case 'concluded': {
      const { name } = m.params;
      return i18n._(msg`Service concluded by ${name}`);
    }
    case 'reopened':
      return i18n._(msg`Service reopened`);
    case 'transferredToQueue': {
      const { from, queue } = m.params;
      return i18n._(msg`${from} transferred the service to the queue ${queue}`);
    }
    case 'transferredToAttendant': {
      const { from, to } = m.params;
      return i18n._(msg`${from} transferred the service to ${to}`);
    }
    case 'slaAnswered': {
      const date = i18n.date(new Date(m.params.date), { dateStyle: 'short' });
      return m.params.accepted ? i18n._(msg`The proposed conclusion date ${date} was accepted`) : i18n._(msg`The proposed conclusion date ${date} was declined`);
    }
    case 'rated': {
      const { stars } = m.params;
      return i18n._(msg`The customer rated the service ${stars}/5`);
    }
    case 'taskCreated': {
      const { title } = m.params;
      const protocol = formatProtocol(m.params.protocol);
      return i18n._(msg`Task created: ${title} (${protocol})`);
    }
    case 'linkedTicketOpened': {
      const { company } = m.params;
      const protocol = formatProtocol(m.params.protocol);
      return i18n._(msg`Linked ticket ${protocol} opened at ${company}`);
    }
    default:
      return null;
  }
}
