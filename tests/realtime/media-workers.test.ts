import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pino from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MEDIA_CODECS, MediaWorkers, createWebRtcTransportOptions, resolveWorkerBin, type WorkerDiedEvent } from '../../src/server/media';

const { bin } = resolveWorkerBin(process.env.MEDIASOUP_WORKER_BIN);
const needsWorker = bin ? '' : ' [skipped: no mediasoup worker binary; run `npm run build:worker`]';
const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const ports = { rtcMinPort: 40000, rtcMaxPort: 40100 };

describe('MediaWorkers', () => {
  const pools: MediaWorkers[] = [];
  afterAll(async () => {
    for (const pool of pools) await pool.close();
  });

  it('reports calls unavailable, naming the path, when MEDIASOUP_WORKER_BIN points nowhere', async () => {
    const pool = await MediaWorkers.start({ workerBin: '/nonexistent', numWorkers: 1, ...ports, logger });
    pools.push(pool);
    const status = pool.status();
    expect(status.available).toBe(false);
    if (status.available) return;
    expect(status.reason).toContain('/nonexistent');
    expect(status.reason).toContain('npm run build:worker');
    expect(() => pool.nextWorker()).toThrow(/calls unavailable/);
  });

  // In a child process: mediasoup keeps the worker path it was first loaded with, for the whole process.
  it('reports calls unavailable, without throwing, when the worker binary exits at start', async () => {
    const script = `
      import pino from 'pino';
      import { MediaWorkers } from './src/server/media/index.ts';
      const pool = await MediaWorkers.start({ workerBin: '/bin/false', numWorkers: 2, rtcMinPort: 40000, rtcMaxPort: 40100, logger: pino({ level: 'silent' }) });
      console.log(JSON.stringify(pool.status()));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
    expect(JSON.parse(stdout)).toEqual({ available: false, reason: expect.stringMatching(/\/bin\/false failed to start: .*code:1/) });
  });

  it('reports calls disabled with MEDIASOUP_NUM_WORKERS=0', async () => {
    const pool = await MediaWorkers.start({ workerBin: bin, numWorkers: 0, ...ports, logger });
    expect(pool.status()).toEqual({ available: false, reason: expect.stringContaining('MEDIASOUP_NUM_WORKERS=0') });
  });

  it.skipIf(!bin)(`runs a worker, a router and a WebRTC transport, and replaces a killed worker${needsWorker}`, async () => {
    const pool = await MediaWorkers.start({ workerBin: bin, numWorkers: 1, ...ports, logger });
    pools.push(pool);
    const first = pool.status();
    if (!first.available) throw new Error(`pool unavailable: ${first.reason}`);
    expect(first.workers).toEqual([{ index: 0, pid: expect.any(Number), restarts: 0 }]);
    const firstPid = first.workers[0]!.pid;

    const { worker, index } = pool.nextWorker();
    expect(index).toBe(0);
    expect(worker.pid).toBe(firstPid);
    const router = await worker.createRouter({ mediaCodecs: MEDIA_CODECS });
    expect(router.rtpCapabilities.codecs!.map((c) => c.mimeType)).toEqual(
      expect.arrayContaining(['audio/opus', 'video/VP8', 'video/H264']),
    );
    const transport = await router.createWebRtcTransport(
      createWebRtcTransportOptions({ listenIp: '127.0.0.1', announcedIp: undefined }),
    );
    expect(transport.iceCandidates.map((c) => c.protocol).sort()).toEqual(['tcp', 'udp']);
    for (const candidate of transport.iceCandidates) {
      expect(candidate.address).toBe('127.0.0.1');
      expect(candidate.port).toBeGreaterThanOrEqual(ports.rtcMinPort);
      expect(candidate.port).toBeLessThanOrEqual(ports.rtcMaxPort);
    }
    expect(transport.dtlsParameters.fingerprints.length).toBeGreaterThan(0);
    transport.close();
    router.close();

    const died: WorkerDiedEvent[] = [];
    pool.onWorkerDied((event) => died.push(event));
    process.kill(firstPid, 'SIGKILL');
    await vi.waitFor(() => expect(died).toEqual([expect.objectContaining({ index: 0, pid: firstPid })]), { timeout: 5000 });
    await vi.waitFor(
      () => {
        const status = pool.status();
        expect(status).toEqual({ available: true, workers: [{ index: 0, pid: expect.any(Number), restarts: 1 }] });
      },
      { timeout: 5000 },
    );
    const after = pool.status();
    if (!after.available) throw new Error('unreachable');
    expect(after.workers[0]!.pid).not.toBe(firstPid);

    const replacement = pool.nextWorker().worker;
    expect(replacement.pid).toBe(after.workers[0]!.pid);
    const router2 = await replacement.createRouter({ mediaCodecs: MEDIA_CODECS });
    expect(router2.closed).toBe(false);

    await pool.close();
    expect(pool.status().available).toBe(false);
    expect(() => process.kill(after.workers[0]!.pid, 0)).toThrow();
  });
});
