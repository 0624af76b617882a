/**
 * `npm run bench -- --quick` still works: every benchmark runs once, small, against this run's
 * PostgreSQL, and writes its results. Timings are not asserted (a loaded CI machine decides them);
 * the benchmarks' own correctness checks are (queue-take: no double-takes, none lost; sfu: packets
 * reach the counting viewers), and cold-start fails when /i/recent's initial JavaScript passes its ceiling.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, inject, test } from 'vitest';
import { resolveWorkerBin } from '../../src/server/media';

test('every benchmark runs in --quick mode and writes its results', async () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'atende-bench-quick-'));
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--quick'], {
      env: { ...process.env, BENCH_PG_ADMIN_URL: inject('pgAdminUrl'), BENCH_TEMPLATE_DB: inject('templateDb'), BENCH_RESULTS_DIR: out, BENCH_LOG_LEVEL: 'error' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, output).toBe(0);
    for (const name of ['chat-fanout', 'queue-take', 'recents', 'cold-start', 'client-lists', 'sfu']) {
      const result = JSON.parse(fs.readFileSync(path.join(out, `${name}.json`), 'utf8'));
      expect(result, name).toMatchObject({ name, quick: true });
      expect(result.tables.length, name).toBeGreaterThan(0);
      for (const t of result.tables) expect(t.rows.length, `${name}: ${t.title}`).toBeGreaterThan(0);
    }
    const fanout = JSON.parse(fs.readFileSync(path.join(out, 'chat-fanout.json'), 'utf8'));
    // Every message of the smoke run reached all five sockets, sent over the socket and over HTTP.
    expect(Object.keys(fanout.summary.app).sort()).toEqual(['http', 'socket']);
    for (const steps of Object.values(fanout.summary.app) as { lost: number; failed: number; shed: number }[][]) {
      for (const step of steps) expect(step.lost + step.failed + step.shed, JSON.stringify(step)).toBe(0);
    }
    const queue = JSON.parse(fs.readFileSync(path.join(out, 'queue-take.json'), 'utf8'));
    expect(queue.summary.checks).toEqual({ lost: 0, doubleTakes: 0, badResponsible: 0, missingInfo: 0 });
    expect(queue.summary.ok).toBe(true);
    const sfu = JSON.parse(fs.readFileSync(path.join(out, 'sfu.json'), 'utf8'));
    if (resolveWorkerBin(process.env.MEDIASOUP_WORKER_BIN).bin) {
      // Packets really left the SFU towards the counting viewers, on one worker and spread over all.
      for (const setup of [sfu.summary.oneWorker, sfu.summary.spread]) {
        expect(setup.steps.length).toBeGreaterThan(0);
        for (const step of setup.steps) expect(step.checkPackets, JSON.stringify(step)).toBeGreaterThan(0);
      }
      expect(sfu.summary.recordings[0].cpuMsPerSecond).toBeGreaterThan(0);
      // H264 is recorded by copying it into MP4 (a broken copy leaves no file and fails the run).
      expect(sfu.summary.recordingsH264.copied[0].cpuMsPerSecond).toBeGreaterThan(0);
    } else {
      expect(sfu.summary.skipped).toMatch(/no mediasoup worker binary/);
    }
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}, 360_000);
