/**
 * Records a room: its audio mixed from every participant, and one video. mediasoup sends each
 * track over a PlainTransport (RTP on 127.0.0.1) to an ffmpeg that listens on the port the SDP
 * names. Audio: one small ffmpeg per voice decodes Opus to PCM for the AudioMixer; the mix goes
 * into the encoder's stdin. Video: the screen share when there is one, else the recorder's own
 * camera, else the first camera, chosen when the recording starts. The video is copied as it
 * arrives, never re-encoded, when a container every browser plays holds it: VP8 into WebM (VP8 +
 * Opus), H264 (Safari, phones) into fragmented MP4 (H264 + Opus; fragments, so a file cut short
 * still plays). Anything else is transcoded to VP8: one libvpx encoder costs a good part of a
 * core, a copy almost nothing (bench/sfu measures recordings per core both ways).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { types } from 'mediasoup';
import type { Logger } from 'pino';
import { AudioMixer, MIX_SAMPLE_RATE } from './audio-mixer';
import type { ProducerAppData, Room } from './room';

const LOCALHOST = '127.0.0.1';
/** The first key frame can be lost while ffmpeg starts listening: ask again for a few seconds. */
const KEYFRAME_RETRIES_MS = [0, 500, 1000, 2000, 3000, 5000];
const KEYFRAME_INTERVAL_MS = 10_000;
const STOP_TIMEOUT_MS = 15_000;
/** ffmpeg binds its port well within a second; a machine busy with other work can take several (a crash ends the wait at once). */
const LISTEN_TIMEOUT_MS = 15_000;

/** ffmpeg could not be run at all (missing, not executable): trying again cannot help. */
export class FfmpegUnavailableError extends Error {}

export interface RecordingResult {
  file: string;
  size: number;
  durationMs: number;
  mime: 'video/webm' | 'audio/webm' | 'video/mp4';
  extension: 'webm' | 'mp4';
  hasVideo: boolean;
}

/** How the video of a recording is written: copied into WebM or MP4, or transcoded to VP8. */
export function videoPlan(mimeType: string, copyH264 = true): { copy: boolean; container: 'webm' | 'mp4' } {
  const codec = mimeType.toLowerCase();
  if (codec === 'video/vp8') return { copy: true, container: 'webm' };
  if (codec === 'video/h264' && copyH264) return { copy: true, container: 'mp4' };
  return { copy: false, container: 'webm' };
}

/** A free even UDP port whose next port (RTCP) is free too. */
async function freeRtpPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const rtp = dgram.createSocket('udp4');
    const port = await new Promise<number>((resolve, reject) => {
      rtp.once('error', reject);
      rtp.bind(0, LOCALHOST, () => resolve(rtp.address().port));
    });
    if (port % 2 !== 0 || port >= 65535) {
      rtp.close();
      continue;
    }
    const rtcp = dgram.createSocket('udp4');
    const ok = await new Promise<boolean>((resolve) => {
      rtcp.once('error', () => resolve(false));
      rtcp.bind(port + 1, LOCALHOST, () => resolve(true));
    });
    rtp.close();
    if (ok) rtcp.close();
    if (ok) return port;
  }
  throw new Error('no free UDP port pair for the recording');
}

/** Resolves once something (ffmpeg) is bound to the port: our own bind then fails. */
async function waitUntilListening(port: number, child: ChildProcessWithoutNullStreams): Promise<void> {
  const deadline = Date.now() + LISTEN_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`ffmpeg exited (${child.exitCode}) before listening`);
    const probe = dgram.createSocket('udp4');
    const taken = await new Promise<boolean>((resolve) => {
      probe.once('error', () => resolve(true));
      probe.bind(port, LOCALHOST, () => resolve(false));
    });
    probe.close();
    if (taken) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('ffmpeg did not start listening in time');
}

function sdpFor(kind: 'audio' | 'video', port: number, codec: types.RtpCodecParameters): string {
  const name = codec.mimeType.split('/')[1]!;
  const channels = kind === 'audio' && codec.channels ? `/${codec.channels}` : '';
  const fmtp = Object.entries(codec.parameters ?? {}).map(([k, v]) => `${k}=${v}`).join(';');
  return [
    'v=0',
    `o=- 0 0 IN IP4 ${LOCALHOST}`,
    's=atende-recording',
    `c=IN IP4 ${LOCALHOST}`,
    't=0 0',
    `m=${kind} ${port} RTP/AVP ${codec.payloadType}`,
    `a=rtpmap:${codec.payloadType} ${name}/${codec.clockRate}${channels}`,
    ...(fmtp ? [`a=fmtp:${codec.payloadType} ${fmtp}`] : []),
    'a=sendonly',
    '',
  ].join('\n');
}

/** One track leaving mediasoup over RTP towards a local port. */
interface RtpLeg {
  transport: types.PlainTransport;
  consumer: types.Consumer;
  port: number;
}

async function openLeg(router: types.Router, producer: types.Producer, port: number): Promise<RtpLeg> {
  const transport = await router.createPlainTransport({ listenIp: LOCALHOST, rtcpMux: false, comedia: false });
  try {
    await transport.connect({ ip: LOCALHOST, port, rtcpPort: port + 1 });
    // The router's own capabilities: the consumer keeps the producer's codec, nothing to negotiate.
    const consumer = await transport.consume({ producerId: producer.id, rtpCapabilities: router.rtpCapabilities, paused: true });
    return { transport, consumer, port };
  } catch (err) {
    transport.close();
    throw err;
  }
}

interface AudioInput {
  leg: RtpLeg;
  decoder: ChildProcessWithoutNullStreams;
}

export class Recorder {
  private readonly audio = new Map<string, AudioInput>();
  private video: RtpLeg | undefined;
  private keyframeTimers: NodeJS.Timeout[] = [];
  private readonly mixer: AudioMixer;
  private unlisten: (() => void) | undefined;
  private stopping = false;
  private encoderExit: Promise<number | null>;
  private encoderLog = '';

  private constructor(
    private readonly room: Room,
    private readonly dir: string,
    readonly file: string,
    private readonly encoder: ChildProcessWithoutNullStreams,
    private readonly hasVideo: boolean,
    private readonly logger: Logger,
    private readonly ffmpeg: string,
  ) {
    this.mixer = new AudioMixer(encoder.stdin);
    encoder.stdin.on('error', () => {}); // EPIPE when ffmpeg exits first: reported through its exit code
    encoder.stderr.on('data', (d: Buffer) => {
      this.encoderLog = (this.encoderLog + d.toString()).slice(-4000);
    });
    this.encoderExit = new Promise((resolve) => encoder.once('close', (code) => resolve(code)));
  }

  /**
   * Starts recording `room`. `preferUserId` is whose camera to record when nobody shares a screen.
   * Rejects (and leaves nothing running) when ffmpeg or the media legs cannot start.
   */
  static async start(room: Room, opts: { preferUserId?: string; logger: Logger; ffmpegPath?: string; copyH264?: boolean }): Promise<Recorder> {
    const ffmpeg = opts.ffmpegPath ?? 'ffmpeg';
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `atende-rec-${room.callId.slice(0, 8)}-`));
    let file = path.join(dir, 'recording.webm');
    const producers = room.producerObjects();
    const videoProducer =
      producers.find((p) => p.appData.source === 'screen' && !p.closed) ??
      producers.find((p) => p.appData.source === 'cam' && p.appData.userId === opts.preferUserId) ??
      producers.find((p) => p.appData.source === 'cam');

    let videoLeg: RtpLeg | undefined;
    let encoder: ChildProcessWithoutNullStreams | undefined;
    try {
      const args = ['-hide_banner', '-loglevel', 'error', '-nostdin'];
      if (videoProducer) {
        const port = await freeRtpPort();
        videoLeg = await openLeg(room.router, videoProducer, port);
        const codec = videoLeg.consumer.rtpParameters.codecs[0]!;
        const sdpFile = path.join(dir, 'video.sdp');
        fs.writeFileSync(sdpFile, sdpFor('video', port, codec));
        const { copy, container } = videoPlan(codec.mimeType, opts.copyH264);
        if (container === 'mp4') file = path.join(dir, 'recording.mp4');
        args.push(
          '-protocol_whitelist', 'file,udp,rtp',
          '-analyzeduration', '2000000', '-probesize', '2000000', '-fflags', '+genpts',
          '-f', 'sdp', '-i', sdpFile,
          '-f', 's16le', '-ar', String(MIX_SAMPLE_RATE), '-ac', '1', '-i', 'pipe:0',
          '-map', '0:v:0', '-map', '1:a:0',
          ...(copy ? ['-c:v', 'copy'] : ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '1M']),
        );
      } else {
        args.push('-f', 's16le', '-ar', String(MIX_SAMPLE_RATE), '-ac', '1', '-i', 'pipe:0', '-map', '0:a:0');
      }
      const mp4 = file.endsWith('.mp4');
      args.push('-c:a', 'libopus', '-b:a', '64k', ...(mp4 ? ['-f', 'mp4', '-movflags', '+frag_keyframe+empty_moov+default_base_moof'] : ['-f', 'webm']), '-y', file);
      // -nostdin only stops ffmpeg reading keyboard commands; pipe:0 is still the audio input.
      encoder = spawn(ffmpeg, args, { stdio: ['pipe', 'pipe', 'pipe'] });
      const spawned = encoder;
      await new Promise<void>((resolve, reject) => {
        spawned.once('spawn', () => resolve());
        spawned.once('error', (err) => reject(new FfmpegUnavailableError(`could not run ffmpeg (${ffmpeg}): ${err.message}`)));
      });
      if (videoLeg) await waitUntilListening(videoLeg.port, encoder);
    } catch (err) {
      encoder?.kill('SIGKILL');
      videoLeg?.transport.close();
      fs.rmSync(dir, { recursive: true, force: true });
      throw err;
    }

    const recorder = new Recorder(room, dir, file, encoder, !!videoLeg, opts.logger.child({ callId: room.callId, recording: true }), ffmpeg);
    recorder.video = videoLeg;
    try {
      for (const producer of producers) if (producer.kind === 'audio' && !producer.closed) await recorder.addAudio(producer);
      if (videoLeg) {
        await videoLeg.consumer.resume();
        recorder.requestKeyFrames(videoLeg.consumer);
      }
    } catch (err) {
      await recorder.abort();
      throw err;
    }
    recorder.mixer.start();
    // People who start talking (or join) during the recording are mixed in; those who leave drop out.
    recorder.unlisten = room.listen({
      producerAdded: (info) => {
        if (info.kind !== 'audio') return;
        const producer = room.producerObjects().find((p) => p.id === info.producerId);
        if (producer) recorder.addAudio(producer).catch((err) => recorder.logger.warn({ err }, 'could not add a voice to the recording'));
      },
      producerClosed: (info) => recorder.removeAudio(info.producerId),
    });
    return recorder;
  }

  private async addAudio(producer: types.Producer<ProducerAppData>): Promise<void> {
    if (this.stopping || this.audio.has(producer.id)) return;
    const port = await freeRtpPort();
    const leg = await openLeg(this.room.router, producer, port);
    const codec = leg.consumer.rtpParameters.codecs[0]!;
    const decoder = spawn(
      this.ffmpeg,
      ['-hide_banner', '-loglevel', 'error', '-protocol_whitelist', 'pipe,udp,rtp', '-f', 'sdp', '-i', 'pipe:0', '-f', 's16le', '-ac', '1', '-ar', String(MIX_SAMPLE_RATE), 'pipe:1'],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    decoder.on('error', (err) => this.logger.warn({ err }, 'audio decoder failed'));
    decoder.stderr.resume();
    decoder.stdin.end(sdpFor('audio', port, codec));
    this.mixer.addInput(producer.id);
    decoder.stdout.on('data', (pcm: Buffer) => this.mixer.push(producer.id, pcm));
    this.audio.set(producer.id, { leg, decoder });
    try {
      await waitUntilListening(port, decoder);
      await leg.consumer.resume();
    } catch (err) {
      this.removeAudio(producer.id);
      throw err;
    }
  }

  private removeAudio(producerId: string): void {
    const input = this.audio.get(producerId);
    if (!input) return;
    this.audio.delete(producerId);
    this.mixer.removeInput(producerId);
    input.leg.transport.close();
    input.decoder.kill('SIGKILL');
  }

  private requestKeyFrames(consumer: types.Consumer): void {
    const ask = () => {
      if (!consumer.closed) consumer.requestKeyFrame().catch(() => {});
    };
    for (const ms of KEYFRAME_RETRIES_MS) this.keyframeTimers.push(setTimeout(ask, ms));
    // Periodic key frames keep a file that lost packets decodable from the next one on.
    this.keyframeTimers.push(setInterval(ask, KEYFRAME_INTERVAL_MS));
  }

  /** Finishes the file: stops the mix, lets ffmpeg write its trailer, and measures the result. */
  async stop(): Promise<RecordingResult> {
    this.stopping = true;
    this.unlisten?.();
    for (const t of this.keyframeTimers) clearTimeout(t);
    const mixedMs = this.mixer.stop();
    this.encoder.stdin.end();
    // SIGINT makes ffmpeg stop reading the RTP input and close the file properly.
    if (this.hasVideo) this.encoder.kill('SIGINT');
    const killTimer = setTimeout(() => this.encoder.kill('SIGKILL'), STOP_TIMEOUT_MS);
    const code = await this.encoderExit;
    clearTimeout(killTimer);
    this.releaseLegs();
    // ffmpeg exits 255 after SIGINT while still writing a valid file; a missing or empty file is the failure.
    const size = fs.existsSync(this.file) ? fs.statSync(this.file).size : 0;
    if (size === 0) {
      this.cleanup();
      throw new Error(`the recording produced no file (ffmpeg exit ${code}): ${this.encoderLog.trim().slice(-500)}`);
    }
    const durationMs = (await probeDurationMs(this.ffmpeg, this.file)) ?? mixedMs;
    const mp4 = this.file.endsWith('.mp4');
    const mime = mp4 ? 'video/mp4' : this.hasVideo ? 'video/webm' : 'audio/webm';
    return { file: this.file, size, durationMs, mime, extension: mp4 ? 'mp4' : 'webm', hasVideo: this.hasVideo };
  }

  /** Stops everything and throws the file away. */
  async abort(): Promise<void> {
    this.stopping = true;
    this.unlisten?.();
    for (const t of this.keyframeTimers) clearTimeout(t);
    this.mixer.stop();
    this.encoder.kill('SIGKILL');
    this.releaseLegs();
    this.cleanup();
  }

  /** Removes the temporary directory (after the file was stored). */
  cleanup(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private releaseLegs(): void {
    for (const id of [...this.audio.keys()]) this.removeAudio(id);
    this.video?.transport.close();
    this.video = undefined;
  }
}

/** The file's duration as ffprobe reads it (ffprobe sits next to ffmpeg in every package). */
function probeDurationMs(ffmpeg: string, file: string): Promise<number | null> {
  const ffprobe = ffmpeg === 'ffmpeg' ? 'ffprobe' : path.join(path.dirname(ffmpeg), 'ffprobe');
  return new Promise((resolve) => {
    const child = spawn(ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=nw=1:nk=1', file]);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', () => resolve(null));
    child.on('close', () => {
      const seconds = Number.parseFloat(out.trim());
      resolve(Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : null);
    });
  });
}
