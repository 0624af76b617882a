import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { PERMISSION_KEYS, type Permission } from '../../../shared/domain/profiles';
import type { MemberState } from './types';

/** Names shown for the values the server sends as codes, defined once for every screen. */
export const MEMBER_STATE_LABELS: Record<MemberState, MessageDescriptor> = {
  waiting: msg`Waiting approval`,
  active: msg`Active`,
  blocked: msg`Blocked`,
  removed: msg`Removed`,
};

export const MEMBER_STATE_BADGE: Record<MemberState, string> = {
  waiting: 'badge badge-warn',
  active: 'badge badge-ok',
  blocked: 'badge badge-danger',
  removed: 'badge',
};

export const ROLE_LABELS = { admin: msg`Administrator`, member: msg`Member` } as const;

export const PROFILE_TYPE_LABELS = { internal: msg`Internal`, admin: msg`Administrator` } as const;

/** The eight profile permissions (spec 3, Profile), in the spec's order. */
export const PERMISSION_LABELS: Record<Permission, MessageDescriptor> = {
  createService: msg`Create new services`,
  integrateSingleService: msg`Integrate single services`,
  serveContactUs: msg`Serve Contact Us customers`,
  addContacts: msg`Add contacts`,
  editContacts: msg`Edit contacts`,
  viewReports: msg`View reports`,
  voiceCall: msg`Make voice calls`,
  sendAudio: msg`Send audio messages`,
};
export { PERMISSION_KEYS };

/** The plan's features (company.plan); a key not listed here shows as the server names it. */
export const PLAN_FEATURE_LABELS: Record<string, MessageDescriptor> = {
  calls: msg`Calls`,
  voipRecorder: msg`Call recording`,
  transc: msg`Transcription`,
  size: msg`Extra storage`,
  members: msg`Members`,
  calendar: msg`Calendar`,
  forms: msg`Forms`,
  whatsapp: msg`WhatsApp`,
  ellevo: msg`Ellevo integration`,
  zabbix: msg`Zabbix integration`,
  intmail: msg`E-mail integration`,
  kanban: msg`Kanban`,
  timesheet: msg`Timesheet`,
  sla: msg`SLA`,
  translate: msg`Translation`,
  anotation: msg`Annotations`,
  invent: msg`Inventory`,
  change: msg`Change management`,
  cmdb: msg`CMDB`,
};
