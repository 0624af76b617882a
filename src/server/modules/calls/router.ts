import {
  callInput,
  cancelCallInput,
  commandInput,
  conversationCallInput,
  createLiveInput,
  enterCallInput,
  enterLiveInput,
  inviteToCallInput,
  callSubtitlesInput,
  mySubtitlesInput,
  recordingInput,
  startCallInput,
  startLiveInput,
} from '../../../shared/schemas/calls';
import { authedProcedure, participantProcedure, memberProcedure, router } from '../../trpc';
import { conversationCalls, describeCall } from './queries';
import * as recording from './recording';
import * as calls from './service';
import * as subtitles from './subtitles';

type Ctx = Parameters<Parameters<typeof authedProcedure.query>[0]>[0]['ctx'];
const deps = (ctx: Ctx): calls.CallsDeps => ({
  db: ctx.db,
  clock: ctx.clock,
  logger: ctx.logger,
  storage: ctx.storage,
  config: ctx.config,
  realtime: ctx.realtime,
  hub: ctx.calls,
});

/**
 * Calls. Starting one is a member's act in their company (member level, with `domain`). Everything
 * after that names the call by id and is open to its participants whoever they are (members,
 * customers, anonymous visitors who came by link): authed level, and the service checks the
 * caller's participation in that call before anything else.
 */
export const callsRouter = router({
  start: memberProcedure.meta({ permission: 'voiceCall', plan: 'calls' }).input(startCallInput).mutation(({ ctx, input }) => calls.startCall(deps(ctx), { userId: ctx.user.id, company: ctx.company, member: ctx.member }, input)),
  startLive: memberProcedure.meta({ permission: 'voiceCall', plan: 'calls' }).input(startLiveInput).mutation(({ ctx, input }) => calls.startCall(deps(ctx), { userId: ctx.user.id, company: ctx.company, member: ctx.member }, { ...input, type: 2 })),
  createLive: memberProcedure.meta({ permission: 'voiceCall', plan: 'calls', rate: 'conversations' }).input(createLiveInput).mutation(({ ctx, input }) => calls.createLiveRoom(deps(ctx), { userId: ctx.user.id, company: ctx.company, member: ctx.member }, input.title)),
  openInConversation: memberProcedure
    .input(conversationCallInput)
    .query(({ ctx, input }) => calls.openCallOf(deps(ctx), { userId: ctx.user.id, company: ctx.company, member: ctx.member }, input.conversationId)),
  history: memberProcedure
    .input(conversationCallInput)
    .query(({ ctx, input }) => conversationCalls(deps(ctx), { userId: ctx.user.id, companyId: ctx.company.id }, input.conversationId)),
  incoming: authedProcedure.query(({ ctx }) => calls.incomingCalls(deps(ctx), ctx.user.id)),
  accept: participantProcedure.input(callInput).mutation(({ ctx, input }) => calls.acceptCall(deps(ctx), ctx.user.id, input.callId)),
  reject: participantProcedure.input(callInput).mutation(({ ctx, input }) => calls.rejectCall(deps(ctx), ctx.user.id, input.callId)),
  cancel: participantProcedure.input(cancelCallInput).mutation(({ ctx, input }) => calls.cancelRinging(deps(ctx), ctx.user.id, input)),
  invite: participantProcedure.input(inviteToCallInput).mutation(({ ctx, input }) => calls.inviteToCall(deps(ctx), ctx.user.id, input)),
  enter: participantProcedure.input(enterCallInput).mutation(({ ctx, input }) => calls.enterCall(deps(ctx), ctx.user.id, input)),
  enterLive: participantProcedure.input(enterLiveInput).mutation(({ ctx, input }) => calls.enterLive(deps(ctx), ctx.user.id, input.conversationId)),
  leave: participantProcedure.input(callInput).mutation(({ ctx, input }) => calls.leaveBeforeJoining(deps(ctx), ctx.user.id, input.callId)),
  end: participantProcedure.input(callInput).mutation(({ ctx, input }) => calls.endByOwner(deps(ctx), ctx.user.id, input.callId)),
  command: participantProcedure.input(commandInput).mutation(({ ctx, input }) => calls.commandParticipant(deps(ctx), ctx.user.id, input)),
  get: participantProcedure.input(callInput).query(({ ctx, input }) => describeCall(deps(ctx), ctx.user.id, input.callId)),
  startRecording: participantProcedure.input(callInput).mutation(({ ctx, input }) => recording.startRecording(deps(ctx), ctx.user.id, input.callId)),
  stopRecording: participantProcedure.input(callInput).mutation(({ ctx, input }) => recording.stopRecording(deps(ctx), ctx.user.id, input.callId)),
  setSubtitles: participantProcedure.input(callSubtitlesInput).mutation(({ ctx, input }) => subtitles.setCallSubtitles(deps(ctx), ctx.user.id, input)),
  setMySubtitles: participantProcedure.input(mySubtitlesInput).mutation(({ ctx, input }) => subtitles.setMySubtitles(deps(ctx), ctx.user.id, input)),
  removeRecording: participantProcedure.input(recordingInput).mutation(({ ctx, input }) => recording.removeRecording(deps(ctx), ctx.user.id, input.recordingId)),
});
