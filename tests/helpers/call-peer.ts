/**
 * A call participant in Node: a real Socket.IO call socket and mediasoup-client's own Device with
 * its FakeHandler (no browser, no RTP), so the whole negotiation — join, transports, DTLS
 * parameters, produce, consume — runs against the server's real mediasoup worker.
 */
import { FakeMediaStreamTrack } from 'fake-mediastreamtrack';
import { Device, FakeHandler, testFakeParameters, type types } from 'mediasoup-client';
import { io as connect, type Socket } from 'socket.io-client';
import type { CallAck, CallChatLine, CallCommandEvent, CallEnded, CallMethod, CallRequest, CallResults, CallSignal, CallState, CallSubtitle, CallSubtitlesToggled, DataProducerInfo, ProducerInfo } from '../../src/shared/call-events';
import type { ClientToServerEvents, ServerToClientEvents } from '../../src/shared/realtime';
import { budget } from './time';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export async function openSocket(url: string, cookie: string, opts: { callId?: string } = {}): Promise<ClientSocket> {
  const socket: ClientSocket = connect(url, {
    transports: ['websocket'],
    extraHeaders: { cookie },
    reconnection: false,
    forceNew: true,
    ...(opts.callId && { query: { call: opts.callId } }),
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('session:ready', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** Everything a socket was told, by event, to assert on. */
export function record(socket: ClientSocket) {
  const seen = {
    signals: [] as CallSignal[],
    states: [] as CallState[],
    ended: [] as CallEnded[],
    commands: [] as CallCommandEvent[],
    newProducers: [] as ProducerInfo[],
    newDataProducers: [] as DataProducerInfo[],
    closedProducers: [] as string[],
    paused: [] as { producerId: string; paused: boolean }[],
    chat: [] as CallChatLine[],
    subtitles: [] as CallSubtitle[],
    subtitleToggles: [] as CallSubtitlesToggled[],
    messages: [] as { type: string; data: unknown; file: unknown; text: string }[],
  };
  socket.on('call:signal', (s) => seen.signals.push(s));
  socket.on('call:state', (s) => seen.states.push(s));
  socket.on('call:ended', (e) => seen.ended.push(e));
  socket.on('call:command', (c) => seen.commands.push(c));
  socket.on('call:newProducer', (p) => seen.newProducers.push(p));
  socket.on('call:newDataProducer', (p) => seen.newDataProducers.push(p));
  socket.on('call:producerClosed', (p) => seen.closedProducers.push(p.producerId));
  socket.on('call:producerPaused', (p) => seen.paused.push(p));
  socket.on('call:chat', (l) => seen.chat.push(l));
  socket.on('call:subtitle', (l) => seen.subtitles.push(l));
  socket.on('call:subtitles', (t) => seen.subtitleToggles.push(t));
  socket.on('message:new', (m) => seen.messages.push(m));
  return seen;
}

export class CallRequestError extends Error {}

export class CallPeer {
  readonly device = new Device({ handlerFactory: FakeHandler.createFactory(testFakeParameters) });
  sendTransport: types.Transport | undefined;
  recvTransport: types.Transport | undefined;
  readonly producers = new Map<string, types.Producer>();
  readonly consumers = new Map<string, types.Consumer>();
  readonly seen: ReturnType<typeof record>;
  joined: CallResults['join'] | undefined;

  private constructor(
    readonly socket: ClientSocket,
    readonly userId: string,
  ) {
    this.seen = record(socket);
  }

  static async open(url: string, cookie: string, userId: string, callId: string): Promise<CallPeer> {
    return new CallPeer(await openSocket(url, cookie, { callId }), userId);
  }

  request<M extends CallMethod>(method: M, data: Omit<Extract<CallRequest, { method: M }>, 'method'> = {} as never): Promise<CallResults[M]> {
    return new Promise((resolve, reject) => {
      this.socket.timeout(budget(15_000)).emit('call:request', { method, ...data } as CallRequest, (err: Error | null, res: CallAck) => {
        if (err) return reject(err);
        if (!res.ok) return reject(new CallRequestError(res.error));
        resolve(res.data as CallResults[M]);
      });
    });
  }

  /** A final speech-recognition result, as the browser sends it; resolves with the line id or rejects with the refusal. */
  transcript(input: { callId: string; text: string; lang: string }): Promise<{ id: string }> {
    return new Promise((resolve, reject) => {
      this.socket.timeout(budget(15_000)).emit('call:transcript', input, (err: Error | null, res: { ok: boolean; data?: { id: string }; error?: string }) => {
        if (err) return reject(err);
        if (!res.ok) return reject(new CallRequestError(res.error));
        resolve(res.data!);
      });
    });
  }

  /** A round trip on this socket: whatever the server sent it before is received by now. */
  sync(): Promise<void> {
    return new Promise((resolve) => this.socket.emit('ping', () => resolve()));
  }

  async join(callId: string) {
    this.joined = await this.request('join', { callId });
    await this.device.load({ routerRtpCapabilities: this.joined.routerRtpCapabilities });
    return this.joined;
  }

  private async transport(direction: 'send' | 'recv'): Promise<types.Transport> {
    const params = await this.request('createTransport', { direction });
    const transport = direction === 'send' ? this.device.createSendTransport(params) : this.device.createRecvTransport(params);
    transport.on('connect', ({ dtlsParameters }, callback, errback) => {
      this.request('connectTransport', { transportId: transport.id, dtlsParameters }).then(() => callback(), errback);
    });
    if (direction === 'send') {
      transport.on('produce', ({ kind, rtpParameters, appData }, callback, errback) => {
        this.request('produce', { transportId: transport.id, kind, rtpParameters, source: appData.source as 'mic' | 'cam' | 'screen' }).then(
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

  async produce(source: 'mic' | 'cam' | 'screen'): Promise<types.Producer> {
    this.sendTransport ??= await this.transport('send');
    const track = new FakeMediaStreamTrack({ kind: source === 'mic' ? 'audio' : 'video' });
    const producer = await this.sendTransport.produce({ track: track as unknown as MediaStreamTrack, appData: { source } });
    this.producers.set(source, producer);
    return producer;
  }

  async consume(producerId: string): Promise<types.Consumer> {
    this.recvTransport ??= await this.transport('recv');
    const params = await this.request('consume', { producerId, rtpCapabilities: this.device.rtpCapabilities });
    const consumer = await this.recvTransport.consume({ id: params.consumerId, producerId: params.producerId, kind: params.kind, rtpParameters: params.rtpParameters });
    await this.request('resumeConsumer', { consumerId: consumer.id });
    this.consumers.set(consumer.id, consumer);
    return consumer;
  }

  /** A data channel (remote assistance annotations): the server decides who may open one. */
  async produceData(label = 'annotations'): Promise<types.DataProducer> {
    this.sendTransport ??= await this.transport('send');
    return this.sendTransport.produceData({ ordered: true, label });
  }

  async consumeData(dataProducerId: string): Promise<types.DataConsumer> {
    this.recvTransport ??= await this.transport('recv');
    const p = await this.request('consumeData', { dataProducerId });
    return this.recvTransport.consumeData({ id: p.dataConsumerId, dataProducerId: p.dataProducerId, sctpStreamParameters: p.sctpStreamParameters, label: p.label, protocol: p.protocol });
  }

  close() {
    this.sendTransport?.close();
    this.recvTransport?.close();
    this.socket.disconnect();
  }
}
