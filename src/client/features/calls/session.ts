/**
 * One call's media in the browser: its own Socket.IO connection (closing it is leaving the call),
 * a mediasoup-client Device, a sending and a receiving transport, the local tracks it publishes
 * and the remote tracks it consumes. Screens subscribe to snapshots (useSyncExternalStore).
 */
import { Device, type types } from 'mediasoup-client';
import { io } from 'socket.io-client';
import type { DataProducerInfo } from '../../../shared/call-events';
import { ANNOTATION_LABEL, applyAnnotation, EMPTY_SCENE, parseAnnotation, type Annotation, type AnnotationScene } from '../../../shared/domain/annotations';
import type { CallAck, CallChatLine, CallCommandEvent, CallEnded, CallMethod, CallRequest, CallResults, CallState, CallSubtitle, CallTranscriptAck, MediaSource, ProducerInfo } from '../../../shared/call-events';
import { PUBLISHER_VIDEO, SCREEN_SHARE_VIDEO, SUBTITLE_CLEAR_MS } from '../../../shared/constants';
import { CALL_MESSAGES } from '../../../shared/domain/calls';
import { SOCKET_TRANSPORTS, type AppSocket } from '../../socket';

export interface RemoteTrack {
  producerId: string;
  userId: string;
  source: MediaSource;
  kind: 'audio' | 'video';
  track: MediaStreamTrack;
  paused: boolean;
}

export interface LocalTracks {
  mic: MediaStreamTrack | null;
  cam: MediaStreamTrack | null;
  screen: MediaStreamTrack | null;
  micOn: boolean;
  camOn: boolean;
}

/**
 * How the media path (ICE + DTLS of both transports) is doing, for the screen to say so: a call
 * whose media cannot reach the server must not look like a call where nobody speaks.
 */
export type MediaLink = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'failed';

export interface SessionSnapshot {
  status: 'connecting' | 'joined' | 'closed';
  media: MediaLink;
  state: CallState | null;
  local: LocalTracks;
  remotes: RemoteTrack[];
  chat: CallChatLine[];
  /** The subtitle line on screen (cleared SUBTITLE_CLEAR_MS after it arrived), and a notice such as 'Transcription turned off'. */
  subtitle: CallSubtitle | null;
  notice: string | null;
  /** Remote assistance: what the attendant has drawn (sent by us, or received on the data channel). */
  annotations: AnnotationScene;
}

export interface SessionEvents {
  onEnded(payload: CallEnded): void;
  onCommand(payload: CallCommandEvent): void;
  /** The connection dropped without the call ending (network, server restart). */
  onLost(): void;
}

export class CallRequestError extends Error {}

const REQUEST_TIMEOUT_MS = 20_000;

/** What a session talks through; the browser's defaults, or a Node client's (tests: a socket with a cookie, a FakeHandler Device). */
export interface SessionLinks {
  socket?: AppSocket;
  device?: Device;
}

export class CallSession {
  private readonly socket: AppSocket;
  private readonly device: Device;
  // Promises, not transports: two consumes (or publishes) started together must share the one
  // transport being created. Two recv transports would split consumers between a server transport
  // the browser never connects and a connected one that carries nothing: a remote tile stays black.
  private sendTransport: Promise<types.Transport> | undefined;
  private recvTransport: Promise<types.Transport> | undefined;
  private readonly producers = new Map<MediaSource, types.Producer>();
  private readonly consumers = new Map<string, types.Consumer>();
  /** Producers whose consumer is being set up: the join's list and a newProducer event may offer the same one. */
  private readonly consuming = new Set<string>();
  /**
   * Tracks announced between the server's join answer and the Device being loaded: the socket is
   * in the call's room before the answer leaves, so a track published in that moment is neither in
   * the answer's list nor consumable yet (no transport before the Device loads). Held here and
   * consumed with the list; null once joined, when announcements are consumed as they come.
   */
  private early: { producers: ProducerInfo[]; dataProducers: DataProducerInfo[] } | null = { producers: [], dataProducers: [] };
  private snapshot: SessionSnapshot = {
    status: 'connecting',
    media: 'idle',
    state: null,
    local: { mic: null, cam: null, screen: null, micOn: false, camOn: false },
    remotes: [],
    chat: [],
    subtitle: null,
    notice: null,
    annotations: EMPTY_SCENE,
  };
  private dataProducer: types.DataProducer | undefined;
  private readonly dataConsumers = new Map<string, types.DataConsumer>();
  private subtitleTimer: ReturnType<typeof setTimeout> | undefined;
  private noticeTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly listeners = new Set<() => void>();
  private readonly links: Partial<Record<'send' | 'recv', types.ConnectionState>> = {};
  private everConnected = false;
  private closing = false;

  constructor(
    readonly callId: string,
    readonly userId: string,
    hostInstance: string,
    private readonly events: SessionEvents,
    links: SessionLinks = {},
  ) {
    // Its own connection: `instance` lets a load balancer send it to the server hosting the call.
    this.socket =
      links.socket ?? (io({ path: '/socket.io', withCredentials: true, forceNew: true, ...SOCKET_TRANSPORTS, query: { call: callId, instance: hostInstance } }) as AppSocket);
    this.device = links.device ?? new Device();
    this.socket.on('call:state', (state) => this.update({ state }));
    this.socket.on('call:newProducer', (info) => {
      if (this.early) this.early.producers.push(info);
      else void this.consume(info).catch(() => {});
    });
    this.socket.on('call:newDataProducer', (info) => {
      if (this.early) this.early.dataProducers.push(info);
      else void this.consumeData(info).catch(() => {});
    });
    this.socket.on('call:producerClosed', ({ producerId }) => {
      if (this.early) this.early.producers = this.early.producers.filter((p) => p.producerId !== producerId);
      this.dropRemote(producerId);
    });
    this.socket.on('call:producerPaused', ({ producerId, paused }) =>
      this.update({ remotes: this.snapshot.remotes.map((r) => (r.producerId === producerId ? { ...r, paused } : r)) }),
    );
    this.socket.on('call:chat', (line) => {
      if (line.callId === callId) this.update({ chat: [...this.snapshot.chat, line] });
    });
    this.socket.on('call:subtitle', (line) => {
      if (line.callId !== callId) return;
      clearTimeout(this.subtitleTimer);
      this.update({ subtitle: line });
      this.subtitleTimer = setTimeout(() => this.update({ subtitle: null }), SUBTITLE_CLEAR_MS);
    });
    this.socket.on('call:subtitles', (payload) => {
      if (payload.callId !== callId || !payload.notice) return;
      clearTimeout(this.noticeTimer);
      this.update({ notice: payload.notice });
      this.noticeTimer = setTimeout(() => this.update({ notice: null }), SUBTITLE_CLEAR_MS);
    });
    this.socket.on('call:ended', (payload) => {
      if (payload.callId !== callId) return;
      this.close();
      events.onEnded(payload);
    });
    this.socket.on('call:command', (payload) => {
      if (payload.callId === callId) events.onCommand(payload);
    });
    this.socket.on('disconnect', (reason) => {
      if (this.closing) return;
      // A disconnect the server asked for (ended, kicked, another tab) comes with its own event.
      if (reason === 'io server disconnect') return;
      this.close();
      events.onLost();
    });
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.snapshot;

  private update(patch: Partial<SessionSnapshot>) {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const l of this.listeners) l();
  }

  request<M extends CallMethod>(method: M, data: Omit<Extract<CallRequest, { method: M }>, 'method'> = {} as never): Promise<CallResults[M]> {
    return new Promise((resolve, reject) => {
      this.socket.timeout(REQUEST_TIMEOUT_MS).emit('call:request', { method, ...data } as CallRequest, (err: Error | null, res: CallAck) => {
        if (err) return reject(new CallRequestError(CALL_MESSAGES.connectionFailed));
        if (!res.ok) return reject(new CallRequestError(res.error));
        resolve(res.data as CallResults[M]);
      });
    });
  }

  /** Joins the room and starts receiving what is already there. */
  async join(): Promise<CallResults['join']> {
    if (!this.socket.connected) {
      await new Promise<void>((resolve, reject) => {
        this.socket.once('connect', () => resolve());
        this.socket.once('connect_error', () => reject(new CallRequestError(CALL_MESSAGES.connectionFailed)));
      });
    }
    const joined = await this.request('join', { callId: this.callId });
    await this.device.load({ routerRtpCapabilities: joined.routerRtpCapabilities });
    this.update({ status: 'joined', state: joined.state });
    const early = this.early!;
    this.early = null;
    for (const producer of [...joined.producers, ...early.producers]) await this.consume(producer).catch(() => {});
    for (const dataProducer of [...joined.dataProducers, ...early.dataProducers]) await this.consumeData(dataProducer).catch(() => {});
    return joined;
  }

  /**
   * The one transport of that direction, created on first use; a failed creation is tried again
   * next time. The promise is shared: two consumes, or the microphone and the annotation channel,
   * starting at the same moment must not make two.
   */
  private ensureTransport(direction: 'send' | 'recv'): Promise<types.Transport> {
    const key = direction === 'send' ? 'sendTransport' : 'recvTransport';
    this[key] ??= this.transport(direction).catch((err: unknown) => {
      this[key] = undefined;
      throw err;
    });
    return this[key];
  }

  private async transport(direction: 'send' | 'recv'): Promise<types.Transport> {
    const params = await this.request('createTransport', { direction });
    const transport = direction === 'send' ? this.device.createSendTransport(params) : this.device.createRecvTransport(params);
    transport.on('connectionstatechange', (state) => {
      this.links[direction] = state;
      this.update({ media: this.mediaLink() });
    });
    transport.on('connect', ({ dtlsParameters }, callback, errback) => {
      this.request('connectTransport', { transportId: transport.id, dtlsParameters }).then(() => callback(), errback);
    });
    if (direction === 'send') {
      transport.on('produce', ({ kind, rtpParameters, appData }, callback, errback) => {
        this.request('produce', { transportId: transport.id, kind, rtpParameters, source: appData.source as MediaSource }).then(
          ({ producerId }) => callback({ id: producerId }),
          errback,
        );
      });
      transport.on('producedata', ({ sctpStreamParameters }, callback, errback) => {
        this.request('produceData', { transportId: transport.id, sctpStreamParameters }).then(({ dataProducerId }) => callback({ id: dataProducerId }), errback);
      });
    }
    return transport;
  }

  /** The worst of the two transports: one failed direction is a failed call for that person. */
  private mediaLink(): MediaLink {
    const states = Object.values(this.links);
    if (states.some((s) => s === 'connected')) this.everConnected = true;
    if (states.includes('failed')) return 'failed';
    if (states.includes('disconnected')) return 'reconnecting';
    if (states.some((s) => s === 'new' || s === 'connecting')) return this.everConnected ? 'reconnecting' : 'connecting';
    return states.includes('connected') ? 'connected' : 'idle';
  }

  private async consume(info: ProducerInfo): Promise<void> {
    if (info.userId === this.userId || this.consumers.has(info.producerId) || this.consuming.has(info.producerId) || this.snapshot.status === 'closed') return;
    this.consuming.add(info.producerId);
    try {
      await this.consumeNew(info);
    } finally {
      this.consuming.delete(info.producerId);
    }
  }

  private async consumeNew(info: ProducerInfo): Promise<void> {
    const recvTransport = await this.ensureTransport('recv');
    const params = await this.request('consume', { producerId: info.producerId, rtpCapabilities: this.device.recvRtpCapabilities! });
    const consumer = await recvTransport.consume({ id: params.consumerId, producerId: params.producerId, kind: params.kind, rtpParameters: params.rtpParameters });
    this.consumers.set(info.producerId, consumer);
    await this.request('resumeConsumer', { consumerId: consumer.id });
    const remote: RemoteTrack = { producerId: info.producerId, userId: info.userId, source: info.source, kind: info.kind, track: consumer.track, paused: info.paused };
    this.update({ remotes: [...this.snapshot.remotes.filter((r) => r.producerId !== info.producerId), remote] });
  }

  /** The attendant's annotation channel: every message is checked before it is drawn. */
  private async consumeData(info: DataProducerInfo): Promise<void> {
    if (info.userId === this.userId || info.label !== ANNOTATION_LABEL || this.dataConsumers.has(info.dataProducerId) || this.snapshot.status === 'closed') return;
    const recvTransport = await this.ensureTransport('recv');
    const params = await this.request('consumeData', { dataProducerId: info.dataProducerId });
    const consumer = await recvTransport.consumeData({
      id: params.dataConsumerId,
      dataProducerId: params.dataProducerId,
      sctpStreamParameters: params.sctpStreamParameters,
      label: params.label,
      protocol: params.protocol,
    });
    this.dataConsumers.set(info.dataProducerId, consumer);
    consumer.on('message', (data: unknown) => {
      const annotation = parseAnnotation(data);
      if (annotation) this.update({ annotations: applyAnnotation(this.snapshot.annotations, annotation) });
    });
  }

  /** Opens our annotation channel (the owner of a remote assistance call); the server refuses others. */
  async openAnnotations(): Promise<void> {
    if (this.dataProducer && !this.dataProducer.closed) return;
    const sendTransport = await this.ensureTransport('send');
    this.dataProducer = await sendTransport.produceData({ ordered: true, label: ANNOTATION_LABEL });
  }

  /** Draws on our own view and sends it; nothing is sent before the channel is open. */
  annotate(annotation: Annotation): void {
    this.update({ annotations: applyAnnotation(this.snapshot.annotations, annotation) });
    if (this.dataProducer?.readyState === 'open') this.dataProducer.send(JSON.stringify(annotation));
  }

  private dropRemote(producerId: string) {
    this.consumers.get(producerId)?.close();
    this.consumers.delete(producerId);
    this.update({ remotes: this.snapshot.remotes.filter((r) => r.producerId !== producerId) });
  }

  /** Sends a track: the microphone, the camera (320x240@30) or the screen (1280x720@30). */
  async publish(source: MediaSource, track: MediaStreamTrack): Promise<void> {
    const sendTransport = await this.ensureTransport('send');
    const existing = this.producers.get(source);
    if (existing) {
      await existing.replaceTrack({ track });
    } else {
      const producer = await sendTransport.produce({
        track,
        appData: { source },
        ...(source === 'mic' && { codecOptions: { opusStereo: false, opusDtx: true } }),
        ...(source === 'cam' && { encodings: [{ maxBitrate: 500_000, maxFramerate: PUBLISHER_VIDEO.frameRate }] }),
        ...(source === 'screen' && { encodings: [{ maxBitrate: 1_500_000, maxFramerate: SCREEN_SHARE_VIDEO.frameRate }] }),
      });
      this.producers.set(source, producer);
      track.addEventListener('ended', () => {
        // The browser's own "Stop sharing" ends the screen track.
        if (source === 'screen') void this.unpublish('screen');
      });
    }
    const local = { ...this.snapshot.local, [source]: track };
    if (source === 'mic') local.micOn = true;
    if (source === 'cam') local.camOn = true;
    this.update({ local });
  }

  async unpublish(source: MediaSource): Promise<void> {
    const producer = this.producers.get(source);
    this.producers.delete(source);
    if (producer) {
      producer.close();
      producer.track?.stop();
      await this.request('closeProducer', { producerId: producer.id }).catch(() => {});
    }
    const local = { ...this.snapshot.local, [source]: null };
    if (source === 'mic') local.micOn = false;
    if (source === 'cam') local.camOn = false;
    this.update({ local });
  }

  /** Microphone or camera on/off without renegotiating: the track pauses. */
  async setEnabled(source: 'mic' | 'cam', on: boolean): Promise<void> {
    const producer = this.producers.get(source);
    if (!producer) return;
    if (on) producer.resume();
    else producer.pause();
    await this.request(on ? 'resumeProducer' : 'pauseProducer', { producerId: producer.id });
    this.update({ local: { ...this.snapshot.local, ...(source === 'mic' ? { micOn: on } : { camOn: on }) } });
  }

  hasProducer(source: MediaSource): boolean {
    return this.producers.has(source);
  }

  async sendChat(text: string): Promise<void> {
    await this.request('chat', { text });
  }

  /** A final speech-recognition result of ours: the server stores it and sends it as subtitles. */
  sendTranscript(text: string, lang: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket.timeout(REQUEST_TIMEOUT_MS).emit('call:transcript', { callId: this.callId, text, lang }, (err: Error | null, res: CallTranscriptAck) => {
        if (err) return reject(new CallRequestError(CALL_MESSAGES.connectionFailed));
        if (!res.ok) return reject(new CallRequestError(res.error));
        resolve();
      });
    });
  }

  async leave(): Promise<void> {
    if (this.snapshot.status !== 'closed') await this.request('leave').catch(() => {});
    this.close();
  }

  close(): void {
    if (this.closing) return;
    this.closing = true;
    clearTimeout(this.subtitleTimer);
    clearTimeout(this.noticeTimer);
    for (const producer of this.producers.values()) producer.track?.stop();
    this.dataProducer?.close();
    for (const consumer of this.dataConsumers.values()) consumer.close();
    for (const track of [this.snapshot.local.mic, this.snapshot.local.cam, this.snapshot.local.screen]) track?.stop();
    void this.sendTransport?.then((t) => t.close(), () => {});
    void this.recvTransport?.then((t) => t.close(), () => {});
    this.socket.disconnect();
    this.update({ status: 'closed' });
  }
}
