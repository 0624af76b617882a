import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaWorkers, mediasoupPackage, prebuiltArchiveName, provisionWorkerBinary, resolveWorkerBin } from '../../src/server/media';

/**
 * With no worker binary, the app gets one at start by itself: mediasoup's prebuilt download
 * (served here by a local server in GitHub-releases layout), else a build from sources, else a
 * reason that names the missing packages. The real binary this machine built stands in for
 * mediasoup's prebuilt one, so the pool really starts workers with what was "downloaded".
 */
const realBin = resolveWorkerBin(process.env.MEDIASOUP_WORKER_BIN).bin;
const needsWorker = realBin ? '' : ' [skipped: no mediasoup worker binary; run `npm run build:worker`]';
const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const pkg = mediasoupPackage()!;
const ports = { rtcMinPort: 40000, rtcMaxPort: 40100 };

let tmp: string;
let server: http.Server;
let baseUrl: string;
const served = new Map<string, Buffer>();
let requests = 0;

/** A .tgz holding one file named mediasoup-worker, as mediasoup's releases do. */
function archiveOf(binary: string): Buffer {
  const dir = fs.mkdtempSync(path.join(tmp, 'archive-'));
  fs.copyFileSync(binary, path.join(dir, 'mediasoup-worker'));
  fs.chmodSync(path.join(dir, 'mediasoup-worker'), 0o755);
  const out = path.join(dir, 'worker.tgz');
  expect(spawnSync('tar', ['-czf', out, '-C', dir, 'mediasoup-worker']).status).toBe(0);
  return fs.readFileSync(out);
}

/** A script standing in for a binary: exits with `code`. */
function fakeBinary(code: number): string {
  const file = path.join(fs.mkdtempSync(path.join(tmp, 'fake-')), 'bin');
  fs.writeFileSync(file, `#!/bin/sh\nexit ${code}\n`, { mode: 0o755 });
  return file;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'atende-provision-'));
  server = http.createServer((req, res) => {
    requests++;
    const body = served.get(req.url ?? '');
    res.writeHead(body ? 200 : 404).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(tmp, { recursive: true, force: true });
});

const releasePath = (version: string) => `/${version}/${prebuiltArchiveName(version)}`;

describe('getting a mediasoup worker at start', () => {
  it(`downloads the prebuilt worker, then starts calls by themselves${needsWorker}`, async () => {
    if (!realBin) return;
    // A cache nobody has filled: resolveWorkerBin finds nothing there.
    process.env.XDG_CACHE_HOME = fs.mkdtempSync(path.join(tmp, 'cache-'));
    served.set(releasePath(pkg.version), archiveOf(realBin));
    const pool = await MediaWorkers.start({
      numWorkers: 1, ...ports, logger,
      provision: { download: true, build: false, downloadBaseUrl: baseUrl },
    });
    try {
      const first = pool.status();
      expect(first).toMatchObject({ available: false, preparing: { step: 'download' }, reason: expect.stringContaining('being prepared') });
      await pool.whenPrepared();
      expect(pool.status()).toMatchObject({ available: true, workers: [expect.objectContaining({ index: 0 })] });
      // The next start finds it in the cache at once.
      expect(resolveWorkerBin(undefined).bin).toBe(path.join(process.env.XDG_CACHE_HOME, 'mediasoup-worker', pkg.version, 'mediasoup-worker'));
    } finally {
      await pool.close();
      delete process.env.XDG_CACHE_HOME;
    }
  });

  it('refuses a prebuilt binary that does not run on this host, then names the missing build packages', async () => {
    const version = '0.0.1-test';
    served.set(releasePath(version), archiveOf(fakeBinary(1)));
    const target = path.join(tmp, 'refused', 'mediasoup-worker');
    const result = await provisionWorkerBinary({
      pkg: { dir: pkg.dir, version }, target, logger, downloadBaseUrl: baseUrl,
      missingPackages: () => ['meson', 'libsrtp2-dev'],
    });
    const reason = 'reason' in result ? result.reason : '';
    expect(reason).toContain('does not run on this host');
    expect(reason).toContain('apt-get install meson libsrtp2-dev');
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.existsSync(`${target}.lock`)).toBe(false);
  });

  it('builds from sources when no prebuilt exists, reporting progress, and one process builds for all', async () => {
    const version = '0.0.2-test';
    // A stand-in for build-worker.sh: prints ninja-style steps, then installs a binary that exits 41.
    const script = path.join(tmp, 'fake-build.sh');
    const good = fakeBinary(41);
    fs.writeFileSync(script, `for i in 1 2 3 4; do echo "[$i/4] Compiling step $i" >&2; done\ncp ${good} "$2"\n`);
    const target = path.join(tmp, 'built', 'mediasoup-worker');
    const progress: (number | undefined)[] = [];
    const opts = {
      pkg: { dir: pkg.dir, version }, target, logger, downloadBaseUrl: baseUrl, buildScript: script,
      missingPackages: () => [],
    };
    const before = requests;
    const [a, b] = await Promise.all([
      provisionWorkerBinary({ ...opts, onProgress: (p) => p.step === 'build' && progress.push(p.percent) }),
      provisionWorkerBinary(opts),
    ]);
    expect(a).toEqual({ bin: target });
    expect(b).toEqual({ bin: target });
    expect(requests - before).toBe(1); // the second process waited on the lock instead of downloading again
    expect(progress).toEqual(expect.arrayContaining([0, 25, 50, 75, 100]));
  });

  it('stays unavailable, saying how to get a worker, when getting one is turned off', async () => {
    process.env.XDG_CACHE_HOME = fs.mkdtempSync(path.join(tmp, 'cache-'));
    try {
      const pool = await MediaWorkers.start({ numWorkers: 1, ...ports, logger, provision: { download: false, build: false } });
      const status = pool.status();
      await pool.close();
      expect(status).toEqual({ available: false, reason: expect.stringContaining('npm run build:worker') });
    } finally {
      delete process.env.XDG_CACHE_HOME;
    }
  });
});
