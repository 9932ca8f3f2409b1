// bench -> `npx tsx bench/cpu-profile-summary.ts <dir>`: where the stack's CPU went in each phase of a
// `BENCH_CPU_PROF=<dir> npm run bench` run. The stack's .cpuprofile and the bench's phases.json share one
// clock (CLOCK_MONOTONIC, µs), so samples are sliced by phase and summed by self time per package and
// per function.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { table } from './report';

export interface Phase {
  name: string;
  startUs: number;
  endUs: number;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The package a frame belongs to: a node_modules package, a project folder, Node itself, or V8. */
const packageOf = (url: string, functionName: string): string => {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node: (built-ins)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules?.[1]) return modules[1];
  const project = /\/(lambdas\/[^/]+\/[^/]+|bin|test)\//.exec(url);
  return project?.[1] ?? url;
};

const functionOf = (node: ProfileNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url ? `${path.basename(url)}:${lineNumber + 1}` : '';
  return `${functionName || '(anonymous)'} ${file}`.trim();
};

/** Sample counts per key, within one phase, as [key, milliseconds] most first. */
const tally = (profile: CpuProfile, phase: Phase, key: (node: ProfileNode) => string) => {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  let time = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    time += delta;
    const node = nodes.get(id);
    if (!node || time < phase.startUs || time > phase.endUs) return;
    const name = key(node);
    totals.set(name, (totals.get(name) ?? 0) + delta / 1000);
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
};

const section = (rows: Array<[string, number]>, total: number, top: number) =>
  table([
    ['self ms', 'share', 'where'],
    ...rows
      .slice(0, top)
      .map(([name, ms]) => [ms.toFixed(0), `${((ms / total) * 100).toFixed(1)}%`, name.slice(0, 100)]),
  ]);

const summarise = (profile: CpuProfile, phase: Phase) => {
  const byPackage = tally(profile, phase, (node) =>
    packageOf(node.callFrame.url, node.callFrame.functionName),
  );
  const total = byPackage.reduce((sum, [, ms]) => sum + ms, 0);
  const wall = (phase.endUs - phase.startUs) / 1000;
  console.log(
    `\n== ${phase.name}: ${wall.toFixed(0)} ms wall, ${total.toFixed(0)} ms sampled on the main thread`,
  );
  console.log(section(byPackage, total, 12));
  console.log('');
  console.log(section(tally(profile, phase, functionOf), total, 20));
};

const main = () => {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: tsx bench/cpu-profile-summary.ts <BENCH_CPU_PROF dir>');
  const phases = JSON.parse(readFileSync(path.join(dir, 'phases.json'), 'utf8')) as Phase[];
  const files = readdirSync(dir).filter((file) => file.endsWith('.cpuprofile'));
  if (files.length === 0) throw new Error(`no .cpuprofile in ${dir}`);
  for (const file of files) {
    console.log(`# ${file}`);
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
    for (const phase of phases) summarise(profile, phase);
  }
};

main();
