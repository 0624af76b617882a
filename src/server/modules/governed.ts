/**
 * The one list of procedures governed by a profile permission or a plan flag. Each entry is
 * declared in the procedure's own meta (`memberProcedure.meta({ permission, plan })`), which
 * src/server/trpc.ts enforces; tests/api/governed.test.ts proves every entry declares exactly this
 * and is refused for a member whose profile, or a company whose plan, lacks it.
 *
 * A key is a procedure path, or `<router>.*` for every member/admin procedure of a router.
 *
 * What cannot be declared in meta because the procedure names a call or form rather than a company
 * (no `domain` in its input) is checked by its service with the same helpers, listed in
 * CHECKED_IN_SERVICE; what has no feature in the code yet is in docs/decisions.md.
 */
import type { PlanFeature } from '../../shared/domain/company';
import type { Permission } from '../../shared/domain/profiles';

export interface Governance {
  permission?: Permission;
  plan?: PlanFeature;
}

export const GOVERNED: Readonly<Record<string, Governance>> = {
  // Profile permissions (spec 3, Profile).
  'service.createTask': { permission: 'createService' },
  'service.openLinkedTicket': { permission: 'createService' },
  'contacts.create': { permission: 'addContacts' },
  'contacts.update': { permission: 'editContacts' },
  'contacts.remove': { permission: 'editContacts' },
  'contacts.merge': { permission: 'editContacts' },
  'contacts.exportCsv': { permission: 'editContacts' },
  'calls.start': { permission: 'voiceCall', plan: 'calls' },
  'calls.startLive': { permission: 'voiceCall', plan: 'calls' },
  'calls.createLive': { permission: 'voiceCall', plan: 'calls' },
  'reports.*': { permission: 'viewReports' },
  'channels.integrateEmail': { permission: 'integrateSingleService', plan: 'intmail' },
  // Plan flags (spec 3, Company plan).
  'forms.*': { plan: 'forms' },
  'commerce.*': { plan: 'invent' },
  'calendar.*': { plan: 'calendar' },
  'appointments.*': { plan: 'calendar' },
  'members.approve': { plan: 'members' },
  'members.inviteByEmail': { plan: 'members' },
  'inviteLink.get': { plan: 'members' },
  'channels.whatsappSettings': { plan: 'whatsapp' },
  'channels.saveWhatsApp': { plan: 'whatsapp' },
  'channels.testWhatsApp': { plan: 'whatsapp' },
  'channels.emailSettings': { plan: 'intmail' },
  'channels.saveEmail': { plan: 'intmail' },
  'channels.saveIntegration': { plan: 'intmail' },
  'channels.removeIntegration': { plan: 'intmail' },
  'service.proposeSla': { plan: 'sla' },
  'service.slaBoard': { plan: 'kanban' },
  'service.timesheet': { plan: 'timesheet' },
  'service.addTime': { plan: 'timesheet' },
  'service.removeTime': { plan: 'timesheet' },
};

/** Rules a service applies itself (the procedure has no `domain`, or the rule depends on the row). */
export const CHECKED_IN_SERVICE: Readonly<Record<string, string>> = {
  'service.take': 'serveContactUs for a Contact Us ticket (type ticket); other requests need no permission',
  'PUT /uploads/chat (recording=1)': 'sendAudio: a voice message (src/server/uploads/attachments.ts)',
  'PUT /uploads/contacts/:domain/import': 'addContacts (src/server/modules/contacts/upload.ts)',
  'calls.startRecording': "voipRecorder, and the storage quota ('size'): no recording starts with no space left",
  'calls.start (type 4)': "anotation: remote assistance draws on the customer's screen (the procedure declares calls and voiceCall)",
  'call socket produceData': 'only the owner of a remote assistance call (tipo 4) opens the annotation channel',
  'calls.setSubtitles / calls.setMySubtitles': "transc; translation also needs 'translate'",
  'formsCustomer.*': "forms, checked on the form's company",
  'commerceView.*': "invent, checked on the budget's company (budgets and sales by id, the customer's answer, the PDFs)",
  'booking.slots / booking.book': "calendar, checked on the public page's company (booking.attendants answers [] without it)",
  'booking.queueSlots / booking.bookQueue': "calendar, checked on the public page's company (booking.queues answers [] without it)",
  'queues.create / queues.update': 'sla, when the queue is saved with an SLA',
};

/** Every governed procedure path of a router, with what governs it (wildcards expanded). */
export function governedProcedures(paths: Iterable<string>): Map<string, Governance> {
  const out = new Map<string, Governance>();
  for (const path of paths) {
    const exact = GOVERNED[path];
    const wildcard = GOVERNED[`${path.split('.')[0]}.*`];
    const rule = exact ?? wildcard;
    if (rule) out.set(path, rule);
  }
  return out;
}
