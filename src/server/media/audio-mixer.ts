/**
 * Mixes the call's voices for a recording. Each participant's audio arrives as 48 kHz mono
 * signed 16-bit PCM from its own ffmpeg decoder; every 20 ms of wall-clock time the mixer sums
 * what each input has (silence for an input with nothing: a muted or lagging participant never
 * holds the others up) and writes one frame to the encoder.
 *
 * Why not ffmpeg's amix: it waits for every input, so one muted participant (whose producer sends
 * nothing) would stall the whole recording; and its inputs are fixed when it starts, while people
 * join and leave during a recording.
 */
import type { Writable } from 'node:stream';

export const MIX_SAMPLE_RATE = 48_000;
const FRAME_MS = 20;
const FRAME_SAMPLES = (MIX_SAMPLE_RATE * FRAME_MS) / 1000; // 960
const FRAME_BYTES = FRAME_SAMPLES * 2;
/** Beyond this an input is running ahead (a burst after a stall): its oldest audio is dropped. */
const MAX_BUFFERED_BYTES = (MIX_SAMPLE_RATE * 2 * 300) / 1000; // 300 ms

export class AudioMixer {
  private readonly inputs = new Map<string, Buffer>();
  private timer: NodeJS.Timeout | undefined;
  /** null until start(): a mixer stopped before it started (a recording aborted while setting up) owes no frames. */
  private startedAt: number | null = null;
  private framesWritten = 0;

  constructor(private readonly output: Writable) {}

  addInput(id: string): void {
    if (!this.inputs.has(id)) this.inputs.set(id, Buffer.alloc(0));
  }

  removeInput(id: string): void {
    this.inputs.delete(id);
  }

  /** PCM from one input's decoder. */
  push(id: string, pcm: Buffer): void {
    const current = this.inputs.get(id);
    if (!current) return;
    let next = current.length ? Buffer.concat([current, pcm]) : pcm;
    if (next.length > MAX_BUFFERED_BYTES) next = next.subarray(next.length - MAX_BUFFERED_BYTES + ((next.length - MAX_BUFFERED_BYTES) % 2));
    this.inputs.set(id, next);
  }

  start(): void {
    this.startedAt = Date.now();
    this.framesWritten = 0;
    // Frames are produced by elapsed time, not by counting timer callbacks, so a late timer
    // catches up instead of making the recording shorter than the call.
    this.timer = setInterval(() => this.produceDueFrames(), FRAME_MS);
  }

  /** Writes what is due and stops. Returns the mixed duration in milliseconds. */
  stop(): number {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.produceDueFrames();
    this.startedAt = null;
    return this.framesWritten * FRAME_MS;
  }

  private produceDueFrames(): void {
    // Without the null check, "due" since 1970 was tens of billions of frames written in one
    // synchronous loop: a recording aborted before its mix started took the process's CPU and memory.
    if (this.startedAt === null) return;
    const due = Math.floor((Date.now() - this.startedAt) / FRAME_MS) - this.framesWritten;
    for (let i = 0; i < due; i++) {
      this.output.write(this.mixFrame());
      this.framesWritten += 1;
    }
  }

  private mixFrame(): Buffer {
    const mixed = new Int32Array(FRAME_SAMPLES);
    for (const [id, buffer] of this.inputs) {
      const take = Math.min(buffer.length - (buffer.length % 2), FRAME_BYTES);
      for (let s = 0; s < take / 2; s++) mixed[s]! += buffer.readInt16LE(s * 2);
      this.inputs.set(id, buffer.subarray(take));
    }
    const out = Buffer.alloc(FRAME_BYTES);
    for (let s = 0; s < FRAME_SAMPLES; s++) out.writeInt16LE(Math.max(-32768, Math.min(32767, mixed[s]!)), s * 2);
    return out;
  }
}
