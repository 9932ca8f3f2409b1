// bench -> section 7: the typed client (clients/typescript) sending a 100 MiB PDF from its file to the
// local stack, in a process of its own, against a baseline in the same run: a process that reads the same
// file and SHA-256s it (the client's first pass alone). Figures: each process's peak RSS growth over its
// RSS when it starts the work (the larger of 20 ms samples and the kernel's VmHWM), the ratio of the two,
// and wall times. The client hashes the file, then streams it; memory should not grow with the file.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { ops } from '../test/support/local-stack';
import { writeLargePdf } from '../test/support/pdfs';
import { peakGrowth, toMiB, watchMemory } from './process-memory';
import { median, mib, ms, ratio, round, table } from './report';
import { type BenchStack, NODE, ROOT } from './stack';

const PDF_BYTES = 100 * 1024 * 1024;
const RUNS = 3;

interface ChildRun {
  growth: number;
  ms: number;
  status: number;
}

/** Runs bench/client-child.ts in `mode`, its memory watched from `ready` to its answer. */
const runChild = async (
  mode: 'hash' | 'upload',
  file: string,
  baseUrl: string,
  apiKey: string,
): Promise<ChildRun> => {
  // One Node process running the script (the tsx CLI would run it in a child of its own).
  const child = spawn(NODE, ['--import', 'tsx', 'bench/client-child.ts', mode, file, baseUrl, apiKey], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let waiting: (() => void) | undefined;
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
    waiting?.();
  });
  const exited = once(child, 'exit');
  const nextLine = async (): Promise<string> => {
    while (lines.length === 0) {
      if (child.exitCode !== null) throw new Error(`client-child ${mode} exited ${child.exitCode}`);
      await Promise.race([new Promise<void>((resolve) => (waiting = resolve)), exited]);
    }
    return lines.shift() as string;
  };
  if ((await nextLine()) !== 'ready') throw new Error(`client-child ${mode} did not say ready`);
  const memory = watchMemory(child.pid as number);
  child.stdin.write('go\n');
  const answer = JSON.parse(await nextLine()) as { ms: number; status: number };
  const window = memory.stop();
  await exited;
  return { growth: peakGrowth(window), ms: answer.ms, status: answer.status };
};

export const clientSection = async (
  stack: BenchStack,
  workDir: string,
  progress: (message: string) => void,
) => {
  const bootstrap = await ops(stack, 'dev-bootstrap');
  const apiKey = (bootstrap.json?.keys as { production?: string } | undefined)?.production;
  if (!apiKey) throw new Error(`dev-bootstrap failed: ${bootstrap.stderr}`);
  const file = path.join(workDir, 'client-100mib.pdf');
  progress(`client: writing a ${toMiB(PDF_BYTES)} MiB PDF…`);
  await writeLargePdf(file, PDF_BYTES);
  const rows: Array<{ hash: ChildRun; upload: ChildRun }> = [];
  for (let run = 1; run <= RUNS; run++) {
    progress(`client: run ${run}/${RUNS}, baseline (hash the file)…`);
    const hash = await runChild('hash', file, stack.production, apiKey);
    progress(`client: run ${run}/${RUNS}, the typed client's upload…`);
    const upload = await runChild('upload', file, stack.production, apiKey);
    if (upload.status !== 202) throw new Error(`the client's upload answered ${upload.status}`);
    rows.push({ hash, upload });
  }
  const growthRatio = (row: { hash: ChildRun; upload: ChildRun }) =>
    row.upload.growth / Math.max(row.hash.growth, 1);
  console.log(`\n7. The typed client sending a ${toMiB(PDF_BYTES)} MiB PDF from its file (its own process)`);
  console.log('   baseline = a process that reads the same file and SHA-256s it, 64 KiB at a time\n');
  console.log(
    table([
      ['run', 'client RSS growth', 'baseline RSS growth', 'ratio', 'client upload→202', 'baseline hash'],
      ...rows.map((row, i) => [
        String(i + 1),
        mib(toMiB(row.upload.growth)),
        mib(toMiB(row.hash.growth)),
        ratio(growthRatio(row)),
        ms(row.upload.ms),
        ms(row.hash.ms),
      ]),
    ]),
  );
  const summary = {
    client: {
      pdf_bytes: PDF_BYTES,
      upload_rss_growth_mib: rows.map((row) => round(toMiB(row.upload.growth), 1)),
      baseline_rss_growth_mib: rows.map((row) => round(toMiB(row.hash.growth), 1)),
      growth_ratio_median: round(median(rows.map(growthRatio))),
      upload_ms_median: round(median(rows.map((row) => row.upload.ms)), 0),
      baseline_ms_median: round(median(rows.map((row) => row.hash.ms)), 0),
    },
  };
  console.log(
    `\n   median RSS growth ratio ${ratio(summary.client.growth_ratio_median)} (client over baseline); ` +
      `the file is ${toMiB(PDF_BYTES)} MiB`,
  );
  console.log(`\n${JSON.stringify(summary)}`);
};
