/**
 * A V8 CPU profile of this process (the in-process app server) over one part of a benchmark only
 * (BENCH_CPU_PROFILE=<dir>: chat-fanout's series, queue-take's race),
 * e.g. the measured steps without the seeding and the connect storm that `node --cpu-prof` would
 * also record. Written as `<dir>/<name>.cpuprofile` (open it in Chrome DevTools, or summarize it).
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';

export async function startProfile(dir: string | undefined, name: string) {
  if (!dir) return { stop: async () => undefined };
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  return {
    stop: async () => {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${name}.cpuprofile`);
      fs.writeFileSync(file, JSON.stringify(profile));
      return file;
    },
  };
}
