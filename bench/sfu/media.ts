/**
 * Synthetic media for the SFU benchmark: a short VP8 + Opus clip encoded once, then streamed in
 * real time by ffmpeg (`-c copy`, so the publisher costs almost nothing) as RTP into the room's
 * PlainTransports; and the CPU time of processes read from /proc (workers, ffmpeg children).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { types } from 'mediasoup';

export const VIDEO_RTP: types.RtpParameters = {
  codecs: [{ mimeType: 'video/VP8', payloadType: 101, clockRate: 90000, rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }, { type: 'ccm', parameter: 'fir' }] }],
  encodings: [{ ssrc: 22222222 }],
};
/** What Safari and phones send: H264 constrained baseline, packetization-mode 1 (codecs.ts). */
export const H264_RTP: types.RtpParameters = {
  codecs: [{ mimeType: 'video/H264', payloadType: 102, clockRate: 90000, parameters: { 'packetization-mode': 1, 'profile-level-id': '42e01f', 'level-asymmetry-allowed': 1 }, rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }] }],
  encodings: [{ ssrc: 33333333 }],
};
export const AUDIO_RTP: types.RtpParameters = {
  codecs: [{ mimeType: 'audio/opus', payloadType: 100, clockRate: 48000, channels: 2 }],
  encodings: [{ ssrc: 11111111 }],
};

function run(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}: ${err.slice(-400)}`))));
  });
}

/**
 * A camera-like clip: 640x360 at 30 fps, ~600 kbit/s with a key frame every second, Opus 48 kHz
 * stereo. VP8 (what Chrome and Firefox send) or H264 baseline with its parameter sets before every
 * key frame, as browsers send them.
 */
export async function makeClip(dir: string, seconds: number, codec: 'vp8' | 'h264' = 'vp8'): Promise<string> {
  const file = path.join(dir, `clip-${codec}.mkv`);
  const video =
    codec === 'vp8'
      ? ['-c:v', 'libvpx', '-b:v', '600k', '-g', '30', '-deadline', 'realtime', '-cpu-used', '8']
      : ['-c:v', 'libx264', '-profile:v', 'baseline', '-level', '3.1', '-pix_fmt', 'yuv420p', '-preset', 'veryfast', '-tune', 'zerolatency', '-b:v', '600k', '-g', '30', '-x264-params', 'repeat-headers=1'];
  await run([
    '-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000',
    '-t', String(seconds), ...video, '-c:a', 'libopus', '-b:a', '48k', '-ac', '2', '-y', file,
  ]);
  return file;
}

/** Streams the clip in a loop, in real time, to the two PlainTransports (video, audio). */
export function publish(clip: string, ports: { video: [number, number]; audio: [number, number] }, codec: 'vp8' | 'h264' = 'vp8'): ChildProcess {
  const params = codec === 'vp8' ? VIDEO_RTP : H264_RTP;
  const rtp = ([port, rtcp]: [number, number]) => `rtp://127.0.0.1:${port}?rtcpport=${rtcp}&pkt_size=1200`;
  const child = spawn(
    'ffmpeg',
    [
      '-hide_banner', '-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', clip,
      '-map', '0:v:0', '-c', 'copy',
      '-payload_type', String(params.codecs[0]!.payloadType), '-ssrc', String(params.encodings![0]!.ssrc), '-f', 'rtp', rtp(ports.video),
      '-map', '0:a:0', '-c', 'copy', '-payload_type', '100', '-ssrc', String(AUDIO_RTP.encodings![0]!.ssrc), '-f', 'rtp', rtp(ports.audio),
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return child;
}

const TICKS = 100; // USER_HZ on Linux

/** CPU time (ms) a process has used so far, from /proc/<pid>/stat; 0 when it is gone. */
export function cpuMsOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
  } catch {
    return 0;
  }
}

/** This process's ffmpeg children (the recorders' encoders and decoders), but not `except`. */
export function ffmpegChildren(except: number[] = []): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && comm === 'ffmpeg' && !except.includes(Number(entry))) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
