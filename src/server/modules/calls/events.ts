/**
 * The call socket: one request handler, a case per request, each answered through the Socket.IO
 * acknowledgement ({ ok, data } or { ok: false, error }). A socket carries at most one call; when
 * it disconnects, its person leaves the call.
 */
import { randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { Socket } from 'socket.io';
import type { CallAck, CallRequest, CallResults } from '../../../shared/call-events';
import { CALL_TYPE } from '../../../shared/constants';
import { ANNOTATION_LABEL } from '../../../shared/domain/annotations';
import { CALL_MESSAGES as M } from '../../../shared/domain/calls';
import { callRequestSchema, transcriptInput } from '../../../shared/schemas/calls';
import { rooms, type ClientToServerEvents, type InterServerEvents, type ServerToClientEvents, type SocketData } from '../../../shared/realtime';
import { MediaError, type Room } from '../../media/room';
import type { CallSocketHandle } from './hub';
import { joinCall, leaveCall, setMediaFlags, type CallsDeps } from './service';
import { SUBTITLE_MESSAGES } from '../../../shared/domain/subtitles';
import { receiveTranscript } from './subtitles';

type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** What the browser may be told: our own refusals; anything unexpected is logged and said plainly. */
function errorText(err: unknown, deps: CallsDeps, method: string | undefined): string {
  if (err instanceof TRPCError || err instanceof MediaError) return err.message;
  deps.logger.warn({ err, method }, 'call request failed');
  // The spec's texts: a session that could not be set up, or a connection step that failed.
  return method === 'join' ? M.sessionNotStarted : M.connectionFailed;
}

export function registerCallSocketHandlers(socket: AppSocket, deps: CallsDeps) {
  let callId: string | null = null;
  const handle: CallSocketHandle = { id: socket.id, userId: socket.data.userId, disconnect: () => socket.disconnect(true) };
  // Requests of one socket run one after another: a produce never overtakes the join before it.
  let queue: Promise<unknown> = Promise.resolve();

  socket.on('call:request', (request, ack) => {
    if (typeof ack !== 'function') return;
    queue = queue.then(() =>
      handleRequest(request).then(
        (data) => ack({ ok: true, data } as CallAck),
        (err) => ack({ ok: false, error: errorText(err, deps, (request as { method?: string } | null)?.method) }),
      ),
    );
  });

  // Not queued behind the media requests: a slow translator must not hold up a produce.
  socket.on('call:transcript', (raw, ack) => {
    if (typeof ack !== 'function') return;
    const parsed = transcriptInput.safeParse(raw);
    if (!parsed.success) return ack({ ok: false, error: SUBTITLE_MESSAGES.invalidTranscript });
    // Only for the call this socket joined: its participation was checked there.
    if (parsed.data.callId !== callId) return ack({ ok: false, error: M.notParticipant });
    receiveTranscript(deps, handle.userId, parsed.data).then(
      (data) => ack({ ok: true, data }),
      (err) => ack({ ok: false, error: err instanceof TRPCError ? err.message : errorText(err, deps, 'transcript') }),
    );
  });

  socket.on('disconnect', () => {
    deps.hub.sockets.delete(socket.id);
    const leaving = callId;
    callId = null;
    if (leaving) leaveCall(deps, handle, leaving).catch((err) => deps.logger.error({ err, callId: leaving }, 'leave on disconnect failed'));
  });

  function room(): Room {
    if (!callId) throw new MediaError('Join the call first');
    const r = deps.hub.rooms?.get(callId);
    if (!r) throw new MediaError(M.callMissing);
    return r;
  }

  async function handleRequest(raw: unknown): Promise<CallResults[keyof CallResults]> {
    const parsed = callRequestSchema.safeParse(raw);
    if (!parsed.success) throw new MediaError('Invalid call request');
    const req = parsed.data as CallRequest;
    switch (req.method) {
      case 'join': {
        if (callId && callId !== req.callId) throw new MediaError('Leave the current call first');
        deps.hub.sockets.set(socket.id, handle);
        const result = await joinCall(deps, handle, req.callId);
        callId = req.callId;
        await socket.join(rooms.call(req.callId));
        return result;
      }
      case 'createTransport': {
        const transport = await room().createTransport(socket.id, req.direction);
        return {
          id: transport.id,
          iceParameters: transport.iceParameters,
          iceCandidates: transport.iceCandidates,
          dtlsParameters: transport.dtlsParameters,
          sctpParameters: transport.sctpParameters,
        } as CallResults['createTransport'];
      }
      case 'connectTransport':
        await room().connectTransport(socket.id, req.transportId, req.dtlsParameters as never);
        return {};
      case 'produce': {
        const r = room();
        const call = await deps.db.call.findUnique({ where: { id: r.callId }, select: { isLive: true, ownerId: true } });
        if (call?.isLive && call.ownerId !== handle.userId) throw new MediaError(M.liveOnlyPresenter);
        const producer = await r.produce(socket.id, { transportId: req.transportId, kind: req.kind, rtpParameters: req.rtpParameters as never, source: req.source });
        await setMediaFlags(deps, r.callId, handle.userId, { [flagOf(req.source)]: true });
        return { producerId: producer.id };
      }
      case 'closeProducer': {
        const r = room();
        const producer = r.producerObjects().find((p) => p.id === req.producerId && p.appData.peerId === socket.id);
        r.closeProducer(socket.id, req.producerId);
        if (producer) await setMediaFlags(deps, r.callId, handle.userId, { [flagOf(producer.appData.source)]: false });
        return {};
      }
      case 'pauseProducer':
      case 'resumeProducer': {
        const r = room();
        const paused = req.method === 'pauseProducer';
        await r.setProducerPaused(socket.id, req.producerId, paused);
        const producer = r.producerObjects().find((p) => p.id === req.producerId);
        if (producer) await setMediaFlags(deps, r.callId, handle.userId, { [flagOf(producer.appData.source)]: !paused });
        return {};
      }
      case 'consume':
        return (await room().consume(socket.id, { producerId: req.producerId, rtpCapabilities: req.rtpCapabilities as never })) as CallResults['consume'];
      case 'resumeConsumer':
        await room().resumeConsumer(socket.id, req.consumerId);
        return {};
      case 'produceData': {
        // Only the attendant who started a remote assistance call draws (the customer sees it).
        const r = room();
        const call = await deps.db.call.findUnique({ where: { id: r.callId }, select: { type: true, ownerId: true } });
        if (call?.type !== CALL_TYPE.remoteAccess) throw new MediaError(M.annotationsOnlyRemote);
        if (call.ownerId !== handle.userId) throw new MediaError(M.annotationsOnlyOwner);
        const dp = await r.produceData(socket.id, { transportId: req.transportId, sctpStreamParameters: req.sctpStreamParameters as never, label: ANNOTATION_LABEL });
        return { dataProducerId: dp.id };
      }
      case 'consumeData':
        return (await room().consumeData(socket.id, req.dataProducerId)) as CallResults['consumeData'];
      case 'chat': {
        const r = room();
        const user = await deps.db.user.findUnique({ where: { id: handle.userId }, select: { name: true } });
        const line = { callId: r.callId, id: randomUUID(), userId: handle.userId, name: user?.name ?? '', text: req.text, at: deps.clock.now() };
        deps.realtime.toRoom(rooms.call(r.callId), 'call:chat', line);
        return { id: line.id };
      }
      case 'leave': {
        const leaving = callId;
        callId = null;
        if (leaving) {
          await leaveCall(deps, handle, leaving);
          await socket.leave(rooms.call(leaving));
        }
        return {};
      }
      default: {
        const unknown: never = req;
        throw new MediaError(`Unknown call request ${(unknown as { method: string }).method}`);
      }
    }
  }
}

const flagOf = (source: 'mic' | 'cam' | 'screen') => (source === 'mic' ? 'audio' : source === 'cam' ? 'video' : 'screen');
