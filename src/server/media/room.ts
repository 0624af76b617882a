/**
 * One call's media: a mediasoup Router and its peers, each with its WebRTC transports, producers
 * and consumers (the mediasoup-demo shape). The room knows nothing of calls, users' rights or the
 * database: the calls module decides who may do what and asks the room to do it.
 *
 * Producers live on the origin router. A receiving transport goes where `placement` says (the
 * least-loaded worker once the room is large, see rooms.ts): one worker core carries roughly 500
 * consumers, so a live room spreads its viewers over every worker, each producer piped once to
 * each router that needs it (`router.pipeToRouter`; pause, resume and close follow the pipe).
 */
import type { types } from 'mediasoup';
import type { Logger } from 'pino';
import type { DataProducerInfo, MediaSource, ProducerInfo } from '../../shared/call-events';
import { createWebRtcTransportOptions, MEDIA_CODECS } from './codecs';

export interface RoomNetwork {
  listenIp: string;
  announcedIp: string | undefined;
  /** RTC_PORT: worker i listens on port + i for UDP and TCP (a WebRtcServer); 0 = a port pair per transport. */
  webRtcPort: number;
}

export interface Peer {
  /** The connection (socket) id: one user may be in a room once, through one connection. */
  id: string;
  userId: string;
  transports: Map<string, types.WebRtcTransport>;
  producers: Map<string, types.Producer<ProducerAppData>>;
  consumers: Map<string, types.Consumer>;
  dataProducers: Map<string, types.DataProducer<DataAppData>>;
  dataConsumers: Map<string, types.DataConsumer>;
}

export interface DataAppData extends types.AppData {
  peerId: string;
  userId: string;
}

export interface ProducerAppData extends types.AppData {
  peerId: string;
  userId: string;
  source: MediaSource;
}

/** What the room tells the outside about; the calls module relays it to the browsers. */
export interface RoomListener {
  producerAdded?(producer: ProducerInfo): void;
  producerClosed?(producer: ProducerInfo): void;
  producerPaused?(producer: ProducerInfo): void;
  dataProducerAdded?(dataProducer: DataProducerInfo): void;
  /** A consumer of `peerId` closed because its producer went away. */
  consumerClosed?(peerId: string, consumerId: string, producerId: string): void;
}

export class MediaError extends Error {}

/** Where a room's receiving transports go, and the routers it has on other workers (rooms.ts). */
export interface RouterPlacement {
  /** The worker index for a new receiving transport of this room. */
  pick(room: Room): number;
  /** This room's router on worker `index` (made on first use), with that worker's WebRtcServer. */
  routerOn(room: Room, index: number): Promise<{ router: types.Router; webRtcServer: types.WebRtcServer | undefined }>;
  /** Load accounting: receiving transports and consumers per worker. */
  count(index: number, delta: number): void;
}

/** Initial estimate for a new transport's outgoing bandwidth: enough for a 720p screen share. */
const INITIAL_OUTGOING_BITRATE = 1_500_000;

export class Room {
  private readonly peers = new Map<string, Peer>();
  private readonly listeners = new Set<RoomListener>();
  private closed = false;
  /** The room's routers by worker index, the origin's included. */
  readonly routers = new Map<number, types.Router>();
  private readonly servers = new Map<number, types.WebRtcServer | undefined>();
  /** `${producerId}:${workerIndex}` → the pipe of that producer (or data producer) to that worker's router. */
  private readonly pipes = new Map<string, Promise<void>>();
  /** Set by the registry: where receiving transports go. Without it everything stays on the origin. */
  placement: RouterPlacement | undefined;
  /** Spread receiving transports even while the room is small (live rooms: their viewers are many). */
  spread = false;
  /**
   * Producers piped in from the instance that hosts the call (this room is then an edge of it:
   * modules/calls/cascade.ts), by id, and how to pipe one in on first demand.
   */
  private readonly remote = new Map<string, types.Producer<ProducerAppData>>();
  fetchRemote: ((producerId: string) => Promise<void>) | undefined;

  private constructor(
    readonly callId: string,
    readonly workerIndex: number,
    readonly router: types.Router,
    private readonly network: RoomNetwork,
    private readonly logger: Logger,
    webRtcServer: types.WebRtcServer | undefined,
  ) {
    this.routers.set(workerIndex, router);
    this.servers.set(workerIndex, webRtcServer);
  }

  static async create(opts: {
    callId: string;
    worker: types.Worker;
    workerIndex: number;
    network: RoomNetwork;
    webRtcServer?: types.WebRtcServer | undefined;
    logger: Logger;
  }): Promise<Room> {
    const router = await opts.worker.createRouter({ mediaCodecs: MEDIA_CODECS, appData: { callId: opts.callId } });
    return new Room(opts.callId, opts.workerIndex, router, opts.network, opts.logger.child({ callId: opts.callId }), opts.webRtcServer);
  }

  get isClosed(): boolean {
    return this.closed || this.router.closed;
  }

  get rtpCapabilities(): types.RtpCapabilities {
    return this.router.rtpCapabilities;
  }

  listen(listener: RoomListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  peer(peerId: string): Peer | undefined {
    return this.peers.get(peerId);
  }

  peerOfUser(userId: string): Peer | undefined {
    for (const peer of this.peers.values()) if (peer.userId === userId) return peer;
    return undefined;
  }

  get peerCount(): number {
    return this.peers.size;
  }

  addPeer(peerId: string, userId: string): Peer {
    this.assertOpen();
    const existing = this.peers.get(peerId);
    if (existing) return existing;
    const peer: Peer = { id: peerId, userId, transports: new Map(), producers: new Map(), consumers: new Map(), dataProducers: new Map(), dataConsumers: new Map() };
    this.peers.set(peerId, peer);
    return peer;
  }

  /** Closes the peer's transports, which closes its producers (others' consumers follow) and consumers. */
  removePeer(peerId: string): void {
    const peer = this.peers.get(peerId);
    if (!peer) return;
    this.peers.delete(peerId);
    for (const producer of peer.producers.values()) {
      producer.close();
      this.emit((l) => l.producerClosed?.(info(producer)));
    }
    for (const transport of peer.transports.values()) transport.close();
  }

  /** Every producer in the room, optionally leaving out one peer's own. */
  producers(exceptPeerId?: string): ProducerInfo[] {
    const out: ProducerInfo[] = [];
    for (const peer of this.peers.values()) {
      if (peer.id === exceptPeerId) continue;
      for (const producer of peer.producers.values()) out.push(info(producer));
    }
    return out;
  }

  /** A producer of the hosting instance, piped in over a PipeTransport; it leaves the room when closed. */
  addRemoteProducer(producer: types.Producer<ProducerAppData>): void {
    this.remote.set(producer.id, producer);
    producer.observer.on('close', () => this.remote.delete(producer.id));
  }

  remoteProducer(producerId: string): types.Producer<ProducerAppData> | undefined {
    return this.remote.get(producerId);
  }

  /** A producer of this room's peers (not one piped in), by id. */
  producerById(producerId: string): types.Producer<ProducerAppData> | undefined {
    return this.findProducer(producerId);
  }

  /** The mediasoup producer objects themselves (the recorder consumes them). */
  producerObjects(): types.Producer<ProducerAppData>[] {
    return [...this.peers.values()].flatMap((p) => [...p.producers.values()]);
  }

  /** Consumers (and receiving transports) per worker of this room: what the placement spread. */
  consumersByWorker(): Map<number, number> {
    const out = new Map<number, number>();
    for (const peer of this.peers.values()) {
      for (const c of peer.consumers.values()) {
        const index = (c.appData as { workerIndex?: number }).workerIndex ?? this.workerIndex;
        out.set(index, (out.get(index) ?? 0) + 1);
      }
    }
    return out;
  }

  async createTransport(peerId: string, direction: 'send' | 'recv'): Promise<types.WebRtcTransport> {
    const peer = this.requirePeer(peerId);
    // Producers stay on the origin router; receivers go where the placement says.
    const { index, router, webRtcServer } = direction === 'recv' ? await this.receiverRouter() : { index: this.workerIndex, router: this.router, webRtcServer: this.servers.get(this.workerIndex) };
    const transport = await router.createWebRtcTransport({
      ...createWebRtcTransportOptions({ ...this.network, webRtcServer }),
      initialAvailableOutgoingBitrate: INITIAL_OUTGOING_BITRATE,
      appData: { direction, workerIndex: index },
    });
    // A peer that left while the transport was being created must not leak it.
    if (!this.peers.has(peerId)) {
      transport.close();
      throw new MediaError('You are not in this call');
    }
    peer.transports.set(transport.id, transport);
    if (direction === 'recv') this.placement?.count(index, 1);
    transport.observer.on('close', () => {
      peer.transports.delete(transport.id);
      if (direction === 'recv') this.placement?.count(index, -1);
    });
    return transport;
  }

  /** The router (and its worker) a new receiver of this room goes to. */
  private async receiverRouter(): Promise<{ index: number; router: types.Router; webRtcServer: types.WebRtcServer | undefined }> {
    const index = this.placement ? this.placement.pick(this) : this.workerIndex;
    if (index === this.workerIndex) return { index, router: this.router, webRtcServer: this.servers.get(index) };
    return { index, ...(await this.placement!.routerOn(this, index)) };
  }

  /**
   * A viewer without a browser (the SFU benchmark): a PlainTransport consumer of `producerId`
   * sending RTP to `to`, placed like any receiver. Closing the transport releases it.
   */
  async consumePlain(
    producerId: string,
    to: { ip: string; port: number },
    opts: { srtp?: boolean } = {},
  ): Promise<{ transport: types.PlainTransport; consumer: types.Consumer; workerIndex: number }> {
    this.assertOpen();
    const { index, router } = await this.receiverRouter();
    // SRTP makes the worker encrypt every packet per viewer, as it does for a browser.
    const transport = await router.createPlainTransport({ listenInfo: { protocol: 'udp', ip: '127.0.0.1' }, rtcpMux: true, comedia: false, enableSrtp: !!opts.srtp });
    this.placement?.count(index, 1);
    transport.observer.on('close', () => this.placement?.count(index, -1));
    try {
      await transport.connect({ ...to, ...(opts.srtp && transport.srtpParameters && { srtpParameters: transport.srtpParameters }) });
      await this.pipeTo(index, { producerId });
      const consumer = await transport.consume({ producerId, rtpCapabilities: this.router.rtpCapabilities });
      this.placement?.count(index, 1);
      consumer.observer.on('close', () => this.placement?.count(index, -1));
      return { transport, consumer, workerIndex: index };
    } catch (err) {
      transport.close();
      throw err;
    }
  }

  /** Makes `producerId` (or a data producer) consumable on worker `index`'s router: piped there once. */
  private pipeTo(index: number, what: { producerId: string } | { dataProducerId: string }): Promise<void> {
    if (index === this.workerIndex) return Promise.resolve();
    const id = 'producerId' in what ? what.producerId : what.dataProducerId;
    const key = `${id}:${index}`;
    let pipe = this.pipes.get(key);
    if (!pipe) {
      pipe = (async () => {
        const target = this.routers.get(index);
        if (!target) throw new MediaError('Unknown transport');
        const piped = await this.router.pipeToRouter({ ...what, router: target, listenIp: '127.0.0.1' });
        const closed = piped.pipeProducer?.observer ?? piped.pipeDataProducer?.observer;
        closed?.on('close', () => this.pipes.delete(key));
      })();
      this.pipes.set(key, pipe);
      pipe.catch(() => this.pipes.delete(key));
    }
    return pipe;
  }

  /** A worker other than the origin died: its router and transports are gone, the room goes on. */
  forgetWorker(index: number): void {
    this.routers.delete(index);
    this.servers.delete(index);
    for (const key of [...this.pipes.keys()]) if (key.endsWith(`:${index}`)) this.pipes.delete(key);
  }

  /** Used by the placement when it made this room a router on another worker. */
  addRouter(index: number, router: types.Router, webRtcServer: types.WebRtcServer | undefined): void {
    this.routers.set(index, router);
    this.servers.set(index, webRtcServer);
  }

  async connectTransport(peerId: string, transportId: string, dtlsParameters: types.DtlsParameters): Promise<void> {
    await this.requireTransport(peerId, transportId).connect({ dtlsParameters });
  }

  async produce(
    peerId: string,
    input: { transportId: string; kind: types.MediaKind; rtpParameters: types.RtpParameters; source: MediaSource },
  ): Promise<types.Producer<ProducerAppData>> {
    const peer = this.requirePeer(peerId);
    const transport = this.requireTransport(peerId, input.transportId);
    const kindOfSource = input.source === 'mic' ? 'audio' : 'video';
    if (input.kind !== kindOfSource) throw new MediaError(`A ${input.source} track must be ${kindOfSource}`);
    // One track per source: a new camera replaces the old one.
    for (const existing of peer.producers.values()) {
      if (existing.appData.source === input.source) this.closeProducer(peerId, existing.id);
    }
    const producer = await transport.produce<ProducerAppData>({
      kind: input.kind,
      rtpParameters: input.rtpParameters,
      appData: { peerId, userId: peer.userId, source: input.source },
    });
    peer.producers.set(producer.id, producer);
    producer.observer.on('close', () => peer.producers.delete(producer.id));
    this.emit((l) => l.producerAdded?.(info(producer)));
    return producer;
  }

  /**
   * A publisher without a browser: RTP sent by a local process (ffmpeg) to a PlainTransport of the
   * origin router (comedia: it answers to wherever the first packet came from). The SFU benchmark
   * and the multi-instance tests publish this way; the room treats it as the peer's own track.
   */
  async producePlain(
    peerId: string,
    input: { kind: types.MediaKind; rtpParameters: types.RtpParameters; source: MediaSource; listenIp?: string },
  ): Promise<{ producer: types.Producer<ProducerAppData>; transport: types.PlainTransport }> {
    const peer = this.requirePeer(peerId);
    // RTCP on its own port: ffmpeg sends it from another socket than RTP, and comedia locks each port to its first sender.
    const transport = await this.router.createPlainTransport({ listenInfo: { protocol: 'udp', ip: input.listenIp ?? '127.0.0.1' }, rtcpMux: false, comedia: true });
    try {
      const producer = await transport.produce<ProducerAppData>({
        kind: input.kind,
        rtpParameters: input.rtpParameters,
        appData: { peerId, userId: peer.userId, source: input.source },
      });
      peer.producers.set(producer.id, producer);
      producer.observer.on('close', () => {
        peer.producers.delete(producer.id);
        transport.close();
      });
      this.emit((l) => l.producerAdded?.(info(producer)));
      return { producer, transport };
    } catch (err) {
      transport.close();
      throw err;
    }
  }

  closeProducer(peerId: string, producerId: string): void {
    const producer = this.requireProducer(peerId, producerId);
    producer.close();
    this.emit((l) => l.producerClosed?.(info(producer)));
  }

  async setProducerPaused(peerId: string, producerId: string, paused: boolean): Promise<ProducerInfo> {
    const producer = this.requireProducer(peerId, producerId);
    if (paused) await producer.pause();
    else await producer.resume();
    this.emit((l) => l.producerPaused?.(info(producer)));
    return info(producer);
  }

  /** The producer of one user's source, if any (the owner's remote commands act on it). */
  producerOf(userId: string, source: MediaSource): types.Producer<ProducerAppData> | undefined {
    const peer = this.peerOfUser(userId);
    if (!peer) return undefined;
    for (const producer of peer.producers.values()) if (producer.appData.source === source) return producer;
    return undefined;
  }

  /** A paused consumer: the browser resumes it once its track is wired up, so no key frame is lost. */
  async consume(peerId: string, input: { producerId: string; rtpCapabilities: types.RtpCapabilities }) {
    const peer = this.requirePeer(peerId);
    if (!this.findProducer(input.producerId) && !this.remote.has(input.producerId)) {
      await this.fetchRemote?.(input.producerId).catch((err: unknown) => this.logger.warn({ err }, 'could not pipe a track in from its instance'));
    }
    const producer = this.findProducer(input.producerId) ?? this.remote.get(input.producerId);
    if (!producer) throw new MediaError('This track is no longer available');
    if (producer.appData.peerId === peerId) throw new MediaError('You cannot receive your own track');
    if (!this.router.canConsume({ producerId: producer.id, rtpCapabilities: input.rtpCapabilities })) {
      throw new MediaError('Your browser cannot receive this track');
    }
    const transport = [...peer.transports.values()].find((t) => t.appData.direction === 'recv');
    if (!transport) throw new MediaError('Create a receiving transport first');
    const index = (transport.appData as { workerIndex?: number }).workerIndex ?? this.workerIndex;
    await this.pipeTo(index, { producerId: producer.id });
    const consumer = await transport.consume({ producerId: producer.id, rtpCapabilities: input.rtpCapabilities, paused: true, appData: { workerIndex: index } });
    peer.consumers.set(consumer.id, consumer);
    this.placement?.count(index, 1);
    consumer.observer.on('close', () => {
      peer.consumers.delete(consumer.id);
      this.placement?.count(index, -1);
    });
    consumer.on('producerclose', () => {
      consumer.close();
      this.emit((l) => l.consumerClosed?.(peerId, consumer.id, producer.id));
    });
    return {
      consumerId: consumer.id,
      producerId: producer.id,
      kind: consumer.kind,
      rtpParameters: consumer.rtpParameters,
      userId: producer.appData.userId,
      source: producer.appData.source,
    };
  }

  async resumeConsumer(peerId: string, consumerId: string): Promise<void> {
    const consumer = this.requirePeer(peerId).consumers.get(consumerId);
    if (!consumer) throw new MediaError('Unknown consumer');
    await consumer.resume();
  }

  /** Every data channel in the room, optionally leaving out one peer's own. */
  dataProducers(exceptPeerId?: string): DataProducerInfo[] {
    const out: DataProducerInfo[] = [];
    for (const peer of this.peers.values()) {
      if (peer.id === exceptPeerId) continue;
      for (const dp of peer.dataProducers.values()) out.push(dataInfo(dp));
    }
    return out;
  }

  /**
   * A data channel from the peer's sending transport (SCTP). mediasoup relays its messages as
   * they are, so whoever receives them checks them (shared/domain/annotations.ts).
   */
  async produceData(peerId: string, input: { transportId: string; sctpStreamParameters: types.SctpStreamParameters; label: string }) {
    const peer = this.requirePeer(peerId);
    const transport = this.requireTransport(peerId, input.transportId);
    // One channel per label and peer: a second one replaces the first.
    for (const existing of peer.dataProducers.values()) if (existing.label === input.label) existing.close();
    const dataProducer = await transport.produceData<DataAppData>({
      sctpStreamParameters: input.sctpStreamParameters,
      label: input.label,
      appData: { peerId, userId: peer.userId },
    });
    peer.dataProducers.set(dataProducer.id, dataProducer);
    dataProducer.observer.on('close', () => peer.dataProducers.delete(dataProducer.id));
    this.emit((l) => l.dataProducerAdded?.(dataInfo(dataProducer)));
    return dataProducer;
  }

  async consumeData(peerId: string, dataProducerId: string) {
    const peer = this.requirePeer(peerId);
    let dataProducer: types.DataProducer<DataAppData> | undefined;
    for (const p of this.peers.values()) dataProducer ??= p.dataProducers.get(dataProducerId);
    if (!dataProducer) throw new MediaError('This channel is no longer available');
    if (dataProducer.appData.peerId === peerId) throw new MediaError('You cannot receive your own channel');
    const transport = [...peer.transports.values()].find((t) => t.appData.direction === 'recv');
    if (!transport) throw new MediaError('Create a receiving transport first');
    await this.pipeTo((transport.appData as { workerIndex?: number }).workerIndex ?? this.workerIndex, { dataProducerId });
    const dataConsumer = await transport.consumeData({ dataProducerId });
    peer.dataConsumers.set(dataConsumer.id, dataConsumer);
    dataConsumer.observer.on('close', () => peer.dataConsumers.delete(dataConsumer.id));
    return {
      dataConsumerId: dataConsumer.id,
      dataProducerId,
      sctpStreamParameters: dataConsumer.sctpStreamParameters!,
      label: dataConsumer.label,
      protocol: dataConsumer.protocol,
      userId: dataProducer.appData.userId,
    };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.peers.clear();
    // Closing the router closes every transport, producer and consumer in it.
    for (const router of this.routers.values()) router.close();
    this.listeners.clear();
    this.logger.debug('room closed');
  }

  private emit(fn: (l: RoomListener) => void) {
    for (const listener of this.listeners) {
      try {
        fn(listener);
      } catch (err) {
        this.logger.error({ err }, 'room listener failed');
      }
    }
  }

  private assertOpen() {
    if (this.isClosed) throw new MediaError('This call has ended');
  }

  private requirePeer(peerId: string): Peer {
    this.assertOpen();
    const peer = this.peers.get(peerId);
    if (!peer) throw new MediaError('Join the call first');
    return peer;
  }

  private requireTransport(peerId: string, transportId: string): types.WebRtcTransport {
    const transport = this.requirePeer(peerId).transports.get(transportId);
    if (!transport) throw new MediaError('Unknown transport');
    return transport;
  }

  private requireProducer(peerId: string, producerId: string): types.Producer<ProducerAppData> {
    const producer = this.requirePeer(peerId).producers.get(producerId);
    if (!producer) throw new MediaError('Unknown track');
    return producer;
  }

  private findProducer(producerId: string): types.Producer<ProducerAppData> | undefined {
    for (const peer of this.peers.values()) {
      const producer = peer.producers.get(producerId);
      if (producer) return producer;
    }
    return undefined;
  }
}

function info(producer: types.Producer<ProducerAppData>): ProducerInfo {
  return {
    producerId: producer.id,
    userId: producer.appData.userId,
    kind: producer.kind,
    source: producer.appData.source,
    paused: producer.paused,
  };
}

function dataInfo(dataProducer: types.DataProducer<DataAppData>): DataProducerInfo {
  return { dataProducerId: dataProducer.id, userId: dataProducer.appData.userId, label: dataProducer.label };
}
