import { describe, expect, it } from 'vitest';
import { videoPlan } from '../../src/server/media/recorder';
import { recordingFileName } from '../../src/shared/domain/recording';

describe('how a recording writes its video', () => {
  it('copies VP8 into WebM and H264 into MP4; transcodes anything else to VP8 in WebM', () => {
    expect(videoPlan('video/VP8')).toEqual({ copy: true, container: 'webm' });
    expect(videoPlan('video/H264')).toEqual({ copy: true, container: 'mp4' });
    expect(videoPlan('video/H264', false)).toEqual({ copy: false, container: 'webm' });
    expect(videoPlan('video/VP9')).toEqual({ copy: false, container: 'webm' });
  });

  it('names the file after its container', () => {
    const at = new Date('2026-11-28T15:04:05.123Z');
    expect(recordingFileName(at, 'mp4')).toBe('recording-20261128-150405.mp4');
    expect(recordingFileName(at, 'webm')).toBe('recording-20261128-150405.webm');
  });
});
