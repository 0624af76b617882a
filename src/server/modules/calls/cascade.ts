/**
 * A live room across instances. The instance that hosts the call (Call.hostInstance: where the
 * presenter sends) is its origin; any other instance a viewer reaches becomes an edge: it makes
 * its own room for the call and one PipeTransport towards the origin (SRTP, addresses from
 * RTC_PIPE_IP), and pipes each track in the first time one of its viewers asks for it. Viewers
 * then consume on their own instance, spread over its workers like any live room (rooms.ts).
 *
 * The instances talk through the Socket.IO adapter (askInstance: PostgreSQL or Redis), which
 * also carries every browser notice, so an edge's viewers hear of new and closed tracks from the
 * origin as they do today. The origin tells the edge when a piped track closes or pauses; an edge
 * whose last viewer left closes its room and its pipe.
 */
import type { types } from 'mediasoup';
import type { ProducerInfo } from '../../../shared/call-events';
import { CALL_MESSAGES as M } from '../../../shared/domain/calls';
import type { Logger } from '../../logger';
import { MediaError, type ProducerAppData, type Room } from '../../media/room';
import type { RoomRegistry } from '../../media/rooms';
import type { Realtime } from '../../realtime';

interface LinkAnswer {
  ip: string;
  port: number;
  srtpParameters?: types.SrtpParameters;
}
interface PipeAnswer {
  kind: types.MediaKind;
  rtpParameters: types.RtpParameters;
  paused: boolean;
  appData: ProducerAppData;
}

/** One edge of a call on this instance: the pipe to the origin and the tracks piped in so far. */
interface Edge {
  origin: string;
  transport: types.PipeTransport;
  pipes: Map<string, Promise<void>>;
}

const WILDCARDS = new Set(['0.0.0.0', '::', '']);

export class Cascade {
  /** On an edge: callId → its pipe towards the origin. */
  private readonly edges = new Map<string, Promise<Edge>>();
  /** On the origin: `${callId}:${edgeInstance}` → the pipe towards that edge, and what it carries. */
  private readonly links = new Map<string, { transport: types.PipeTransport; consumers: Map<string, types.Consumer> }>();

  constructor(
    private readonly rooms: RoomRegistry,
    private readonly realtime: Realtime,
    private readonly net: { instanceId: string; listenIp: string; pipeIp: string },
    private readonly logger: Logger,
  ) {
    const me = net.instanceId;
    realtime.answerInstances(me, 'media:link', (b) => this.link(b as { callId: string; from: string } & LinkAnswer));
    realtime.answerInstances(me, 'media:pipe', (b) => this.pipeOut(b as { callId: string; from: string; producerId: string }));
    realtime.answerInstances(me, 'media:producers', async (b) => this.originRoom((b as { callId: string }).callId).producers());
    realtime.answerInstances(me, 'media:unlink', async (b) => this.unlink((b as { callId: string; from: string }).callId, (b as { from: string }).from));
    realtime.answerInstances(me, 'media:track', async (b) => this.trackChanged(b as { callId: string; producerId: string; closed?: boolean; paused?: boolean }));
  }

  private pipeTransportOptions(): types.PipeTransportOptions {
    const announced = WILDCARDS.has(this.net.listenIp) || this.net.listenIp !== this.net.pipeIp ? { announcedAddress: this.net.pipeIp } : {};
    return { listenInfo: { protocol: 'udp', ip: this.net.listenIp, ...announced }, enableSrtp: true };
  }

  // ---------------------------------------------------------------------------------------------
  // Edge side
  // ---------------------------------------------------------------------------------------------

  /** This instance's room of a call hosted by `origin`, linked to it (made on the first viewer). */
  async edgeRoom(callId: string, origin: string): Promise<Room> {
    const room = await this.rooms.getOrCreate(callId);
    room.spread = true;
    let edge = this.edges.get(callId);
    if (!edge) {
      edge = this.openEdge(room, origin);
      this.edges.set(callId, edge);
      edge.catch(() => this.edges.delete(callId));
    }
    await edge;
    return room;
  }

  /** The tracks of the call as its origin has them now (the edge has piped in only some). */
  async originProducers(callId: string, origin: string): Promise<ProducerInfo[]> {
    const answer = await this.realtime.askInstance({ to: origin, kind: 'media:producers', body: { callId } });
    return Array.isArray(answer) ? (answer as ProducerInfo[]) : [];
  }

  isEdge(callId: string): boolean {
    return this.edges.has(callId);
  }

  /** A viewer left this instance's room: an edge nobody watches any more is taken down. */
  async left(callId: string): Promise<void> {
    const edge = this.edges.get(callId);
    const room = this.rooms.get(callId);
    if (!edge || (room && room.peerCount > 0)) return;
    this.edges.delete(callId);
    this.rooms.close(callId);
    const { origin, transport } = await edge.catch(() => ({ origin: undefined, transport: undefined }));
    transport?.close();
    if (origin) await this.realtime.askInstance({ to: origin, kind: 'media:unlink', body: { callId, from: this.net.instanceId } });
  }

  private async openEdge(room: Room, origin: string): Promise<Edge> {
    const transport = await room.router.createPipeTransport(this.pipeTransportOptions());
    try {
      const answer = (await this.realtime.askInstance({
        to: origin,
        kind: 'media:link',
        body: { callId: room.callId, from: this.net.instanceId, ip: this.net.pipeIp, port: transport.tuple.localPort, srtpParameters: transport.srtpParameters },
      })) as (LinkAnswer & { error?: string }) | undefined;
      if (!answer || answer.error) throw new MediaError(answer?.error ?? M.sessionNotStarted);
      await transport.connect({ ip: answer.ip, port: answer.port, ...(answer.srtpParameters && { srtpParameters: answer.srtpParameters }) });
      const edge: Edge = { origin, transport, pipes: new Map() };
      room.fetchRemote = (producerId) => this.pipeIn(room, edge, producerId);
      this.logger.info({ callId: room.callId, origin, port: transport.tuple.localPort }, 'calls: this instance relays a live room of another');
      return edge;
    } catch (err) {
      transport.close();
      throw err;
    }
  }

  /** Pipes one track of the origin into this edge's room, once. */
  private pipeIn(room: Room, edge: Edge, producerId: string): Promise<void> {
    let pipe = edge.pipes.get(producerId);
    if (!pipe) {
      pipe = (async () => {
        const answer = (await this.realtime.askInstance({
          to: edge.origin,
          kind: 'media:pipe',
          body: { callId: room.callId, from: this.net.instanceId, producerId },
        })) as (PipeAnswer & { error?: string }) | undefined;
        if (!answer || answer.error) throw new MediaError(answer?.error ?? 'This track is no longer available');
        const producer = await edge.transport.produce<ProducerAppData>({ id: producerId, kind: answer.kind, rtpParameters: answer.rtpParameters, paused: answer.paused, appData: answer.appData });
        room.addRemoteProducer(producer);
        producer.observer.on('close', () => edge.pipes.delete(producerId));
      })();
      edge.pipes.set(producerId, pipe);
      pipe.catch(() => edge.pipes.delete(producerId));
    }
    return pipe;
  }

  /** The origin says a piped track closed or paused: its copy here follows (its consumers with it). */
  private async trackChanged({ callId, producerId, closed, paused }: { callId: string; producerId: string; closed?: boolean; paused?: boolean }) {
    const producer = this.rooms.get(callId)?.remoteProducer(producerId);
    if (!producer) return;
    if (closed) producer.close();
    else if (paused === true) await producer.pause();
    else if (paused === false) await producer.resume();
  }

  // ---------------------------------------------------------------------------------------------
  // Origin side
  // ---------------------------------------------------------------------------------------------

  private originRoom(callId: string): Room {
    const room = this.rooms.get(callId);
    if (!room || this.edges.has(callId)) throw new MediaError(M.callMissing);
    return room;
  }

  private async link({ callId, from, ip, port, srtpParameters }: { callId: string; from: string } & LinkAnswer): Promise<LinkAnswer> {
    // The edge read Call.hostInstance: the call is ours, even if nobody has joined its media yet.
    if (this.edges.has(callId)) throw new MediaError(M.callMissing);
    const room = await this.rooms.getOrCreate(callId);
    room.spread = true;
    this.unlink(callId, from); // an edge that came back (restarted) gets a fresh pipe
    const transport = await room.router.createPipeTransport(this.pipeTransportOptions());
    try {
      await transport.connect({ ip, port, ...(srtpParameters && { srtpParameters }) });
    } catch (err) {
      transport.close();
      throw err;
    }
    const key = `${callId}:${from}`;
    this.links.set(key, { transport, consumers: new Map() });
    transport.observer.on('close', () => {
      if (this.links.get(key)?.transport === transport) this.links.delete(key);
    });
    return { ip: this.net.pipeIp, port: transport.tuple.localPort, ...(transport.srtpParameters && { srtpParameters: transport.srtpParameters }) };
  }

  private async pipeOut({ callId, from, producerId }: { callId: string; from: string; producerId: string }): Promise<PipeAnswer> {
    const room = this.originRoom(callId);
    const link = this.links.get(`${callId}:${from}`);
    if (!link) throw new MediaError(M.callMissing);
    const producer = room.producerById(producerId);
    if (!producer) throw new MediaError('This track is no longer available');
    const consumer = link.consumers.get(producerId) ?? (await link.transport.consume({ producerId }));
    if (!link.consumers.has(producerId)) {
      link.consumers.set(producerId, consumer);
      const tell = (body: { closed?: boolean; paused?: boolean }) =>
        void this.realtime.askInstance({ to: from, kind: 'media:track', body: { callId, producerId, ...body } });
      consumer.observer.on('close', () => link.consumers.delete(producerId));
      consumer.on('producerclose', () => tell({ closed: true }));
      consumer.on('producerpause', () => tell({ paused: true }));
      consumer.on('producerresume', () => tell({ paused: false }));
    }
    return { kind: consumer.kind, rtpParameters: consumer.rtpParameters, paused: consumer.producerPaused, appData: producer.appData };
  }

  private unlink(callId: string, from: string): void {
    this.links.get(`${callId}:${from}`)?.transport.close();
    this.links.delete(`${callId}:${from}`);
  }
}
