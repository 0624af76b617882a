/**
 * The recording's audio mixer (src/server/media/audio-mixer.ts) against a real Writable: frames by
 * elapsed time, voices summed with clipping, silence for a voice with nothing buffered, and nothing
 * at all from a mixer stopped before it started (a recording aborted while setting up once wrote
 * "every frame since 1970" in one synchronous loop and took the process's memory).
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AudioMixer, MIX_SAMPLE_RATE } from '../../src/server/media/audio-mixer';

const FRAME_BYTES = (MIX_SAMPLE_RATE / 50) * 2;

function sink() {
  const frames: Buffer[] = [];
  const output = new Writable({
    write(chunk: Buffer, _enc, done) {
      frames.push(chunk);
      done();
    },
  });
  return { output, frames };
}

const pcm = (...samples: number[]) => {
  const b = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => b.writeInt16LE(s, i * 2));
  return b;
};

describe('the recording audio mixer', () => {
  it('writes nothing and owes nothing when stopped before it started', () => {
    const { output, frames } = sink();
    const mixer = new AudioMixer(output);
    mixer.addInput('a');
    mixer.push('a', pcm(1000, 1000));
    expect(mixer.stop()).toBe(0);
    expect(mixer.stop()).toBe(0);
    expect(frames).toEqual([]);
  });

  it('sums the voices sample by sample, clips, and pads with silence', async () => {
    const { output, frames } = sink();
    const mixer = new AudioMixer(output);
    mixer.addInput('a');
    mixer.addInput('b');
    mixer.addInput('muted');
    mixer.push('a', pcm(1000, 30_000, -30_000));
    mixer.push('b', pcm(234, 30_000, -30_000, 7));
    mixer.start();
    await expect.poll(() => frames.length).toBeGreaterThanOrEqual(2);
    const mixedMs = mixer.stop();
    expect(mixedMs).toBe(frames.length * 20);
    expect(frames.every((f) => f.length === FRAME_BYTES)).toBe(true);
    const first = frames[0]!;
    expect([0, 1, 2, 3, 4].map((s) => first.readInt16LE(s * 2))).toEqual([1234, 32_767, -32_768, 7, 0]);
    // What was consumed by the first frame is not mixed again.
    expect(frames[1]!.equals(Buffer.alloc(FRAME_BYTES))).toBe(true);
    // Stopped is stopped: no more frames later.
    const written = frames.length;
    expect(mixer.stop()).toBe(mixedMs);
    expect(frames.length).toBe(written);
  });
});
