import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { DOMAIN_MAX_LENGTH, DOMAIN_MIN_LENGTH, MESSAGE_MAX_LENGTH } from '../../shared/constants';
import { CALL_MESSAGES as CALL, CALL_TIME_LIMIT_MESSAGES as LIMIT } from '../../shared/domain/calls';
import { PLAN_FEATURE_MESSAGES as PLAN } from '../../shared/domain/company';
import { SUBTITLE_MESSAGES as SUB } from '../../shared/domain/subtitles';
import { FORM_SERVER_TEXTS } from '../features/forms/texts';
import { REPLY_SERVER_TEXTS } from '../features/replies/texts';
import { BILLING_SERVER_TEXTS } from '../features/credits/texts';
import { LIFECYCLE_MESSAGES as L } from '../../shared/domain/member-lifecycle';
import { ACCESS_MESSAGES } from '../../shared/domain/membership';
import { REQUEST_TOO_LARGE_MESSAGE, UNSTORABLE_TEXT_MESSAGE } from '../../shared/limits';
import { SOCKET_TOO_FAST, SOCKET_TOO_MANY } from '../../shared/realtime';
import { CHANNEL_MESSAGES as CHN } from '../../shared/messages/channels';
import { CHAT_MESSAGES as CH } from '../../shared/messages/chat';
import { COMPANY_MESSAGES as C } from '../../shared/messages/company';
import { IDENTITY_MESSAGES as M } from '../../shared/messages/identity';
import { QUEUE_MESSAGES as Q } from '../../shared/messages/queues';
import { SERVICE_MESSAGES as S } from '../../shared/messages/service';
import { WIDGET_MESSAGES as WG } from '../../shared/messages/widget';
import { CONTACT_MESSAGES as CT } from '../../shared/domain/contacts';
import { NOTE_DOC_INVALID, NOTE_TOO_LONG } from '../../shared/domain/note-doc';
import { FEED_MESSAGES as FD } from '../../shared/messages/feeds';
import { NOTE_MESSAGES as NT } from '../../shared/messages/notes';

/** Feeds, notes and customers. */
const FEEDS_NOTES_CONTACTS_TEXTS: Record<string, MessageDescriptor> = {
  [FD.empty]: msg`Write something or add an image or a file`,
  [FD.tooLong]: msg`A post has at most 5000 characters`,
  [FD.commentEmpty]: msg`Write a comment first`,
  [FD.commentTooLong]: msg`A comment has at most 1500 characters`,
  [FD.notFound]: msg`Post not found`,
  [FD.commentNotFound]: msg`Comment not found`,
  [FD.onlyAuthorOrAdmin]: msg`Only the author or an administrator can change this`,
  [FD.attachmentMissing]: msg`An attached file is missing: add it again`,
  [FD.tooManyAttachments]: msg`A post has at most 10 images or files`,
  [NT.notFound]: msg`Note not found`,
  [NT.onlyOwner]: msg`Only the owner of the note can do this`,
  [NT.readOnly]: msg`This note was shared with you to read only`,
  [NT.notColleague]: msg`You can only share with active members of this company`,
  [NOTE_DOC_INVALID]: msg`The note could not be read: reload it and try again`,
  [NOTE_TOO_LONG]: msg`A note has at most 100,000 characters`,
  [CT.nameRequired]: msg`Name is required`,
  [CT.nameTooLong]: msg`A name has at most 120 characters`,
  [CT.tooLong]: msg`Too long`,
  [CT.notAnOption]: msg`Choose one of the options`,
  [CT.unknownField]: msg`This field does not exist`,
  [CT.tooManyTags]: msg`At most 30 tags`,
  [CT.notFound]: msg`Contact not found`,
  [CT.mergeSame]: msg`Choose two different contacts to merge`,
  [CT.emptyFile]: msg`The file has no rows to import`,
  [CT.noNameColumn]: msg`The file needs a "name" column`,
  [CT.fileTooLarge]: msg`The file is too large (at most 5 MB)`,
  [CT.tooManyRows]: msg`The file has more than 20,000 rows`,
  [CT.notCsv]: msg`The file could not be read as CSV`,
  [CT.columnCount]: msg`The row has a different number of columns than the header`,
  [CT.importNotFound]: msg`Import not found`,
};

/**
 * Customer service: queues, groups, requests, notifications. Spread first into KNOWN, so an
 * entry another area maps itself (the chat's texts) keeps that area's wording.
 */
const SERVICE_TEXTS: Record<string, MessageDescriptor> = {
  [PLAN.sla]: msg`SLA is not included in your plan. Ask an administrator to enable it.`,
  [PLAN.kanban]: msg`The SLA board is not included in your plan. Ask an administrator to enable it.`,
  [PLAN.timesheet]: msg`The timesheet is not included in your plan. Ask an administrator to enable it.`,
  [PLAN.members]: msg`Adding members is not included in your plan. Ask an administrator to enable it.`,
  [S.requestNotFound]: msg`Request not found`,
  [S.alreadyTaken]: msg`This request has already been taken`,
  [S.nameRequired]: msg`To start, tell us your name:`,
  [`name: ${S.nameRequired}`]: msg`To start, tell us your name:`,
  [S.queueDisabled]: msg`This queue is not taking requests at the moment`,
  [S.notTakingRequests]: msg`This company is not taking requests at the moment`,
  [S.contactUsBlocked]: msg`Contact Us is not available at the moment`,
  [WG.badColor]: msg`The colour must be a hex colour such as #1f5fbf`,
  [`color: ${WG.badColor}`]: msg`The colour must be a hex colour such as #1f5fbf`,
  [S.notAService]: msg`This conversation is not a service request`,
  [S.wrongState]: msg`This service is not in a state that allows this`,
  [S.notAllowed]: msg`Only the person responsible for this service can do this`,
  [S.neverTaken]: msg`Only a service that was taken can be reopened`,
  [S.changed]: msg`This service was changed by someone else. Reload it and try again.`,
  [S.concluded]: msg`This service is concluded: start a new one`,
  [S.attendantNotFound]: msg`User not found in domain`,
  [S.invalidAccess]: msg`Invalid Access`,
  [S.transferToSelf]: msg`You are already responsible for this service`,
  [S.slaAlreadyOpen]: msg`A proposal is already waiting for the customer’s answer`,
  [S.slaInThePast]: msg`The proposed date must be in the future`,
  [S.slaNotOpen]: msg`There is no proposal waiting for an answer`,
  [S.notRateable]: msg`Only a concluded service that someone served can be rated`,
  [S.alreadyRated]: msg`This service was already rated`,
  [S.companyNotLinked]: msg`This company is not one of your client or network companies`,
  [S.entryNotFound]: msg`Time entry not found`,
  [S.invalidForm]: msg`Check the highlighted fields`,
  [S.conversationNotFound]: msg`Conversation not found`,
  [S.notParticipant]: msg`You are not in this conversation`,
  [S.removed]: msg`You have been removed from Attendance`,
  [S.blocked]: msg`At the moment the company account is deactivated: you cannot serve the queue or interact with services.`,
  [Q.noGroup]: msg`You need to set at least one service group for this channel`,
  [`groupIds: ${Q.noGroup}`]: msg`You need to set at least one service group for this channel`,
  [Q.groupHasMembers]: msg`This group is linked to one or more members. Unlink them all to continue.`,
  [Q.lastGroupOfQueue]: msg`This group is the only one serving a queue: give that queue another group first`,
  [Q.queueHasWaiting]: msg`People are waiting in this queue: serve or transfer them before removing it`,
  [Q.contactUsQueue]: msg`Contact Us requests go to this queue: choose another one in the Contact Us settings first`,
  'Notification not found': msg`Notification not found`,
  'Too short': msg`Too short`,
  'Too long': msg`Too long`,
  'Choose one of the options': msg`Choose one of the options`,
};

/**
 * The server answers with the spec's texts (English, a few Portuguese); this is the one place that
 * turns them into the user's language. A text not listed here is shown as the server sent it.
 */
const KNOWN: Record<string, MessageDescriptor> = {
  ...FEEDS_NOTES_CONTACTS_TEXTS,
  // Channels (WhatsApp, Telegram, e-mail) settings.
  [CHN.notConfigured]: msg`This channel is not set up yet`,
  [CHN.credentialsRequired]: msg`Fill in the credentials`,
  [CHN.integrationNotFound]: msg`integration URL not found`,
  [CHN.onlySingle]: msg`Only a single conversation can be integrated with e-mail`,
  [CHN.concluded]: msg`This conversation is concluded`,
  ...SERVICE_TEXTS,
  ...FORM_SERVER_TEXTS,
  ...REPLY_SERVER_TEXTS,
  ...BILLING_SERVER_TEXTS,
  [M.invalidEmail]: msg`Invalid email`,
  [M.passwordTooShort]: msg`Password too short, minimum 6 characters!`,
  [M.passwordsDiffer]: msg`Passwords do not match`,
  [M.emailInUse]: msg`Email is already in use!`,
  [M.invalidPassword]: msg`Invalid password`,
  [M.userNotFound]: msg`User not found!`,
  [M.fillAllFields]: msg`Fill in all fields`,
  [M.verifyEmail]: msg`Verify your e-mail to continue!`,
  [M.invalidPhone]: msg`Invalid phone number`,
  [M.invalidCode]: msg`Invalid code`,
  [M.codeExpired]: msg`This code has expired. Request a new one.`,
  [M.linkExpired]: msg`This link has expired or was already used.`,
  [M.passwordTooCommon]: msg`This password is too common. Choose another one.`,
  [M.passwordIsEmail]: msg`The password cannot be your e-mail.`,
  [M.phoneNeedsCode]: msg`Confirm the new number with the code sent to it by SMS.`,
  [M.phoneInUse]: msg`This phone number is already in use`,
  [ACCESS_MESSAGES.notMember]: msg`Attendant not registered`,
  [ACCESS_MESSAGES.blocked]: msg`You no longer have access to this organization!`,
  [ACCESS_MESSAGES.notAccepted]: msg`Access blocked!`,
  'Sign in to continue': msg`Sign in to continue`,
  'Domain not found': msg`Domain not found`,
  'Only administrators can do this': msg`Only administrators can do this`,
  [C.domainUnavailable]: msg`Domain unavailable`,
  [C.nameUnavailable]: msg`Name unavailable`,
  [`The domain must have ${DOMAIN_MIN_LENGTH} to ${DOMAIN_MAX_LENGTH} lowercase letters or digits, without spaces`]: msg`The domain must have ${DOMAIN_MIN_LENGTH} to ${DOMAIN_MAX_LENGTH} lowercase letters or digits, without spaces`,
  'The company could not be created. Please try again.': msg`The company could not be created. Please try again.`,
  'Invite not found': msg`Invite not found`,
  'Something went wrong; try again': msg`Something went wrong; try again`,
  // Company settings: members, profiles, additional fields, client companies.
  [C.profileInUse]: msg`You cannot delete this profile as it is in use!`,
  [L.notWaiting]: msg`This person is not waiting for approval`,
  [L.notActive]: msg`Only active members can change role`,
  [L.lastAdmin]: msg`The company needs at least one administrator: make another member admin first`,
  'Member not found': msg`Member not found`,
  'Group not found': msg`Group not found`,
  'Queue not found': msg`Queue not found`,
  'Profile not found': msg`Profile not found`,
  'Profile not found in the reports list': msg`Profile not found in the reports list`,
  'The built-in profiles A01 and M01 cannot be deleted': msg`The built-in profiles A01 and M01 cannot be deleted`,
  'The type of the built-in profiles A01 and M01 cannot change': msg`The type of the built-in profiles A01 and M01 cannot change`,
  'You cannot change the type of a profile in use': msg`You cannot change the type of a profile in use`,
  'Your profile does not allow this': msg`Your profile does not allow this`,
  'This TAG is already in use': msg`This TAG is already in use`,
  'The TAG may only have letters, digits, _ and -': msg`The TAG may only have letters, digits, _ and -`,
  'A multiple-choice field needs at least one option': msg`A multiple-choice field needs at least one option`,
  'Field not found': msg`Field not found`,
  'A company cannot be its own client': msg`A company cannot be its own client`,
  'Invitation not found': msg`Invitation not found`,
  'Client company not found': msg`Client company not found`,
  'No company has registered this domain yet': msg`No company has registered this domain yet`,
  // Chat
  [CH.self]: msg`You cannot start an event with yourself`,
  [CH.tooLong]: msg`Messages have at most ${MESSAGE_MAX_LENGTH} characters`,
  [CH.empty]: msg`Write a message first`,
  [CH.notParticipant]: msg`You are not in this conversation`,
  [CH.removed]: msg`You have been removed from Attendance`,
  [CH.notFound]: msg`Conversation not found`,
  [CH.responsibleCannotLeave]: msg`Transfer the service to someone else before leaving`,
  [CH.useLeave]: msg`To leave the conversation, use Leave`,
  [CH.notAParticipant]: msg`This person is not in the conversation`,
  [CH.onlyMembers]: msg`Only active members of this company can take part`,
  [CH.blocked]: msg`The company's account is currently deactivated: you will not be able to serve the queue or interact with conversations.`,
  [CH.commentsMembersOnly]: msg`Only members of the company can write comments`,
  [CH.messageNotFound]: msg`Message not found`,
  [CH.onlyAuthorEdits]: msg`Only the author can edit a message`,
  [CH.notEditable]: msg`Only text messages can be edited`,
  [CH.removedMessage]: msg`This message was removed`,
  [CH.replyElsewhere]: msg`You can only reply to a message of the same conversation`,
  [CH.mentionsParticipants]: msg`Only participants of the conversation can be mentioned`,
  [CH.notForwardable]: msg`This message cannot be forwarded`,
  [CH.forwardTargets]: msg`You can only forward to conversations you take part in`,
  [CH.conversationMissing]: msg`Could not delete the conversation [404x1B]`,
  [CH.conversationProblem]: msg`There was a problem deleting the conversation!`,
  [CH.conversationHasTasks]: msg`This conversation is linked to one or more tasks. To delete it, the tasks must be unlinked from it.`,
  [CH.typeRemover]: msg`Type REMOVER to confirm`,
  [CH.onlyCreatorOrAdminDeletes]: msg`Only the person who opened the conversation or an administrator can remove it`,
  [CH.fileNotFound]: msg`File not found`,
  [CH.noteNotFound]: msg`Note not found`,
  [CH.onlyAuthorNote]: msg`Only the author can change a note`,
  [CH.notesMembersOnly]: msg`Notes are for members of the company only`,
  'Write the note first': msg`Write the note first`,
  'Notes have at most 5000 characters': msg`Notes have at most 5000 characters`,
  // Uploads (PUT /uploads/chat/...)
  'The upload needs a Content-Length': msg`The upload needs a Content-Length`,
  'The file is empty': msg`The file is empty`,
  'The company has no storage space left for this file. Remove files or ask an administrator to increase the plan.': msg`The company has no storage space left for this file. Remove files or ask an administrator to increase the plan.`,
  'The thumbnail must be a small image': msg`The thumbnail must be a small image`,
  'A voice message must be audio': msg`A voice message must be audio`,
  'The upload was interrupted; send the file again': msg`The upload was interrupted; send the file again`,
};

/** Texts that carry a short code: 'Não foi possível remover a mensagem [{code}]' and the like. */
const CODE_PATTERNS: { pattern: RegExp; describe: (code: string) => MessageDescriptor }[] = [
  // The provider's own words follow (an IMAP/SMTP server's answer, Graph's error): shown as they came.
  { pattern: new RegExp(`^${escapeRegExp(CHN.refused)}: (.+)$`), describe: (detail) => msg`The provider refused the connection: ${detail}` },
  {
    pattern: new RegExp(`^${escapeRegExp(CH.messageRemoval).replace('\\{code\\}', '(.+)')}$`),
    describe: (code) => msg`Could not remove the message [${code}]`,
  },
  {
    pattern: new RegExp(`^${escapeRegExp(CH.conversationStorage).replace('\\{code\\}', '(.+)')}$`),
    describe: (code) => msg`Could not delete the conversation [${code}]`,
  },
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
/** Calls and credits (calls module): the spec's Portuguese texts and ours. */
const CALLS: Record<string, MessageDescriptor> = {
  [CALL.whatsappCustomer]: msg`WhatsApp customers cannot receive calls.`,
  [CALL.telegramOnly]: msg`Telegram customers cannot receive calls.`,
  [CALL.companyDeactivated]: msg`Attention - Company deactivated`,
  [CALL.planBlocked]: msg`At the moment the company account is deactivated: you cannot serve the queue or interact with conversations.`,
  [CALL.voiceCallFinished]: msg`Voice call finished`,
  [CALL.callMissing]: msg`Call/Live does not exist`,
  [CALL.insufficientBalance]: msg`Attention - Insufficient balance: to keep using the resources, you must add credits.`,
  [CALL.recordingPlanOff]: msg`Service disabled - Ask the administrator to enable call recording`,
  [CALL.recordingPlanOffAdmin]: msg`Your organization's settings do not allow starting a recording`,
  [CALL.recordingDisabled]: msg`Recording disabled - The organization's settings do not allow starting the recording`,
  [CALL.notRecorder]: msg`You cannot finish this recording`,
  [CALL.roomGone]: msg`Room not found. You cannot finish this recording`,
  [CALL.alreadyInCall]: msg`You are already on a call!`,
  [CALL.sessionNotStarted]: msg`Session not started. Wait and try again later`,
  [CALL.connectionFailed]: msg`Connection to the session failed`,
  [CALL.voiceCallStartFailed]: msg`Error starting voice call`,
  [CALL.notParticipant]: msg`You are not in this call`,
  [CALL.onlyOwner]: msg`Only the owner of the call can do this`,
  [CALL.recordOwnerOrAdmin]: msg`Only the owner of the call or an administrator can record`,
  [CALL.recordingBusy]: msg`The recording is changing state; try again in a moment`,
  [CALL.notRecording]: msg`This call is not being recorded`,
  [CALL.alreadyRecording]: msg`This call is already being recorded`,
  [CALL.recordingFailed]: msg`The recording could not be started`,
  [CALL.recordingStopFailed]: msg`The recording could not be finished`,
  [CALL.kicked]: msg`You were removed from this call`,
  [CALL.noOneToCall]: msg`There is nobody else in this conversation to call`,
  [CALL.callsUnavailable]: msg`Calls are not available on this server right now`,
  [CALL.wrongInstance]: msg`This call is hosted by another server instance`,
  [CALL.targetNotInCall]: msg`This person is not in the call`,
  [CALL.selfCommand]: msg`You cannot send this command to yourself`,
  [CALL.notRinging]: msg`This call is no longer ringing`,
  [CALL.badLink]: msg`This call link is not valid`,
  [CALL.liveOnlyPresenter]: msg`Only the presenter sends media in a live session`,
  [CALL.recordingNotFound]: msg`Recording not found`,
  [CALL.remoteNotInLive]: msg`Remote assistance is not available in a live room`,
  [CALL.annotationsOnlyRemote]: msg`Annotations are only drawn in a remote assistance call`,
  [CALL.annotationsOnlyOwner]: msg`Only the attendant who started the remote assistance can draw`,
  [SUB.transcriptionOff]: msg`Transcription turned off`,
  [SUB.ownerOrAdmin]: msg`Only the owner of the call or an administrator can turn subtitles on or off`,
  [SUB.planNoTransc]: msg`Subtitles are not included in your plan. Ask an administrator to enable them.`,
  [SUB.planNoTranslate]: msg`Translation is not included in your plan. Ask an administrator to enable it.`,
  [SUB.subtitlesOff]: msg`Subtitles are off in this call`,
  [SUB.badLanguage]: msg`This language is not available for subtitles`,
  [SUB.invalidTranscript]: msg`This subtitle line could not be read`,
  [LIMIT.prod]: msg`Time limit of 8 hours`,
  [LIMIT.stage]: msg`Time limit of 4 h reached`,
  [LIMIT.dev]: msg`Time limit of 2 h reached`,
  // Media in the browser (features/calls/devices.ts) and the media server's own refusals.
  'Sem Acesso - Microfone e WebCam estão bloquedas. Desbloquei para realizar Chamadas.': msg`No access - Microphone and webcam are blocked. Unblock them to make calls.`,
  'Erro ao carregar a câmera': msg`Could not load the camera`,
  'Não foi possível ativar o sistema de mídia': msg`Could not activate the media system`,
  'This track is no longer available': msg`This track is no longer available`,
  'Your browser cannot receive this track': msg`Your browser cannot receive this track`,
  'This call has ended': msg`This call has ended`,
  'Conversation not found': msg`Conversation not found`,
  'You are not in this conversation': msg`You are not in this conversation`,
  [REQUEST_TOO_LARGE_MESSAGE]: msg`The request is too large: send less at once (files go through the upload button)`,
  [SOCKET_TOO_MANY]: msg`Too many open connections for this user: close another tab or window and try again`,
  [SOCKET_TOO_FAST]: msg`Too many events too fast: some were dropped; slow down`,
};

/** Texts that carry an e-mail address (spec: 'Não foi possivel enviar o e-mail para {email}'). */
const ADDRESS_PATTERNS: { pattern: RegExp; describe: (email: string) => MessageDescriptor }[] = [
  {
    pattern: new RegExp(`^${C.mailFailed.replace('{email}', '(.+)')}$`),
    describe: (email) => msg`Could not send the e-mail to ${email}`,
  },
  {
    // Prefixed by the field's path, which means nothing to the person who typed it.
    pattern: new RegExp(`^(.+): ${UNSTORABLE_TEXT_MESSAGE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
    describe: () => msg`The text contains a character that cannot be stored; remove it and try again`,
  },
];

/** Texts that carry a number: matched by shape, translated with the number in place. */
const PATTERNS: { pattern: RegExp; describe: (n: number) => MessageDescriptor }[] = [
  {
    pattern: /^Too many attempts\. Please wait (\d+) minutes? and try again\.$/,
    describe: (minutes) =>
      msg({
        message: plural(minutes, {
          one: 'Too many attempts. Please wait # minute and try again.',
          other: 'Too many attempts. Please wait # minutes and try again.',
        }),
      }),
  },
  {
    pattern: /^Wait (\d+) seconds before asking for a new code\.$/,
    describe: (seconds) => msg`Wait ${seconds} seconds before asking for a new code.`,
  },
  {
    pattern: /^The file is too large \(at most (\d+) MB\)$/,
    describe: (mb) => msg`The file is too large (at most ${mb} MB)`,
  },
];

export function translateServerMessage(i18n: I18n, message: string): string {
  const known = KNOWN[message] ?? CALLS[message];
  if (known) return i18n._(known);
  for (const { pattern, describe } of PATTERNS) {
    const match = pattern.exec(message);
    if (match) return i18n._(describe(Number(match[1])));
  }
  for (const { pattern, describe } of [...ADDRESS_PATTERNS, ...CODE_PATTERNS]) {
    const match = pattern.exec(message);
    if (match) return i18n._(describe(match[1]!));
  }
  return message;
}
