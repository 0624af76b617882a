/**
 * An optional V8 CPU profile of this process around the measured part of a benchmark
 * (BENCH_CPU_PROFILE=<file.cpuprofile>), so the server's hot functions can be read without the
 * setup's (open the file in Chrome DevTools, or see bench/lib/profile-top.ts).
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';

export async function startProfile(): Promise<() => Promise<void>> {
  const file = process.env.BENCH_CPU_PROFILE;
  if (!file) return async () => {};
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    fs.writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}
