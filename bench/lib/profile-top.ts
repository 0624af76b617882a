/** Prints a .cpuprofile's top functions by self time, and by package/file: `node --import tsx bench/lib/profile-top.ts f.cpuprofile`. */
import fs from 'node:fs';

const profile = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
};
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<string, number>();
const byFile = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  const f = byId.get(id)!.callFrame;
  total += dt;
  const file = f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|bench)\//, '$1/') || '(native)';
  const key = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + dt);
  const pkg = file.startsWith('@') ? file.split('/').slice(0, 2).join('/') : file.split('/')[0]!.startsWith('src') || file.startsWith('bench') ? file.split(':')[0]! : file.split('/')[0]!;
  byFile.set(pkg, (byFile.get(pkg) ?? 0) + dt);
});
const top = (m: Map<string, number>, n: number) =>
  [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)}%  ${(v / 1000).toFixed(0).padStart(6)} ms  ${k}`).join('\n');
console.log(`total ${(total / 1000).toFixed(0)} ms sampled\n-- by function (self)\n${top(self, Number(process.argv[3] ?? 25))}\n-- by package / file\n${top(byFile, 20)}`);
