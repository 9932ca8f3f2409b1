// bench -> `npm run bench`: in one run, (1) a 100 MiB contract upload against a disk baseline, with the
// server's memory, (2) GET /v1/contract-reviews/{id} throughput against a bare node:http server, and with
// request history on against the same build with it off (bench/history.ts),
// (3) pages rendered per second against mutool and pdftoppm (bench/render.ts), and (4) the time from
// upload to the contract_viewer publication published, with a real-world slide and the stack's memory
// meanwhile (bench/publish.ts), and (5) webhook deliveries per
// second to a loopback receiver and the time from an event to its first attempt (bench/webhooks.ts), and
// (6) each deployed function's bundle size and cold module initialisation (bench/functions.ts), and (7)
// the typed client's 100 MiB upload, its memory against a process hashing the file (bench/client.ts),
// (8) page 1 of every PDF in a folder against MuPDF and Poppler (bench/fidelity.ts), and (9) the contract
// analysis of a 100-, 350- and 700-page text contract, in process (bench/analysis.ts), and (10) the
// contract viewer opened on a slow phone against a bare page of its first image (bench/phone.ts), and (11)
// the back office's Reviews list with 1,000 due reviews (bench/back-office.ts).
// `npm run bench -- publish` (or any of upload, get, render, publish, webhooks, functions, client, fidelity,
// analysis, phone, back-office) runs only the sections named, in that order; none named runs them all. `fidelity <folder>`
// compares that folder's PDFs.
// Prints a table, then one JSON summary line. Everything it starts is stopped, even on failure.
// BENCH_CPU_PROF=<dir> also CPU-profiles the stack; `npx tsx bench/cpu-profile-summary.ts <dir>` reads it.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { bearer, contractParts, upload } from '../test/support/api-client';
import { contractPdf, writeLargePdf } from '../test/support/pdfs';
import { analysisSection } from './analysis';
import { backOfficeSection } from './back-office';
import { clientSection } from './client';
import type { Phase } from './cpu-profile-summary';
import { fidelitySection } from './fidelity';
import { functionsSection } from './functions';
import { type HistoryCost, historyCost, meanChildMicros, meanRps, meanServerMicros } from './history';
import { phoneSection } from './phone';
import { peakGrowth, toMiB } from './process-memory';
import { publishSection } from './publish';
import { renderingSection } from './render';
import { mean, median, mib, ms, percent, ratio, round, table, verdict } from './report';
import { type Settled, settle, settledLine } from './settle';
import { type BenchStack, freePortBase, productionToken, ROOT, startStack } from './stack';
import {
  type BareServer,
  capture,
  LOAD,
  type LoadFigures,
  load,
  startBareProcess,
  startBareServer,
  WARM_UP,
} from './throughput';
import {
  baselineCopy,
  flushDisk,
  sendUpload,
  type UploadBody,
  type UploadTiming,
  writeUploadBody,
} from './upload';
import { webhooksSection } from './webhooks';

const PDF_BYTES = 100 * 1024 * 1024; // the largest PDF the interface accepts
/** Fresh stacks, each giving one paired sample of its first upload (see uploadRuns). */
const UPLOAD_PROCESSES = 5;
const GOALS = { uploadRatio: 1.25, memoryGrowthMiB: 64, throughputShare: 0.35, historyRatio: 0.95 } as const;

/** Set to a directory to CPU-profile the stack (see bench/cpu-profile-summary.ts). */
const PROFILE_DIR = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : undefined;
/** Node's flags for every stack the bench starts: a CPU profile each when PROFILE_DIR is set. */
const PROFILE_FLAGS = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
/**
 * `BENCH_BEFORE=<another checkout>` (its own `npm ci` done): the upload and GET sections measure that
 * checkout's stack first, then this one's, each against its own baselines, and compare the two.
 */
const BEFORE = process.env.BENCH_BEFORE ? path.resolve(process.env.BENCH_BEFORE) : undefined;

/** Other work on the machine skews every figure; the load average at the start says how much there was. */
const LOAD_AVERAGE_AT_START = loadavg()[0] ?? 0;

const progress = (message: string) => process.stderr.write(`[bench] ${message}\n`);

const SECTIONS = [
  'upload',
  'get',
  'render',
  'publish',
  'webhooks',
  'functions',
  'client',
  'fidelity',
  'analysis',
  'phone',
  'back-office',
] as const;
type Section = (typeof SECTIONS)[number];
const isSection = (name: string): name is Section => (SECTIONS as readonly string[]).includes(name);

/** The folder named after `fidelity`, if any. */
const fidelityFolder = (args: string[]): string | undefined => {
  const next = args[args.indexOf('fidelity') + 1];
  return args.includes('fidelity') && next !== undefined && !isSection(next) ? next : undefined;
};

/** The sections named on the command line, in the bench's own order; all of them when none is named. */
const chosenSections = (args: string[]): Set<Section> => {
  const folder = fidelityFolder(args);
  const unknown = args.filter((name) => !isSection(name) && name !== folder);
  if (unknown.length > 0) {
    console.error(
      `unknown bench section(s): ${unknown.join(', ')}. Usage: npm run bench -- [${SECTIONS.join('] [')}]`,
    );
    process.exit(2);
  }
  const named = new Set(args.filter(isSection));
  return new Set(SECTIONS.filter((section) => named.size === 0 || named.has(section)));
};

/** Phase windows on CLOCK_MONOTONIC in µs, the clock of the stack's CPU profile. */
const phases: Phase[] = [];
const phase = async <T>(name: string, action: () => Promise<T>): Promise<T> => {
  const startUs = Number(process.hrtime.bigint() / 1000n);
  try {
    return await action();
  } finally {
    phases.push({ name, startUs, endUs: Number(process.hrtime.bigint() / 1000n) });
  }
};

/**
 * Undo steps, run last-in first-out; each one runs even if another fails. `run()` runs them once: a
 * second caller (the signal handler and the `finally`) waits for the same run.
 */
class Cleanup {
  private readonly steps: Array<() => Promise<unknown>> = [];
  private running: Promise<void> | undefined;
  add(step: () => Promise<unknown>) {
    this.steps.push(step);
  }
  run(): Promise<void> {
    this.running ??= (async () => {
      for (const step of this.steps.splice(0).reverse()) {
        await step().catch((error: unknown) => progress(`cleanup step failed: ${String(error)}`));
      }
    })();
    return this.running;
  }
}

/** A small contract sent through the ordinary client helper; answers the contract review id. */
const sendSmallContract = async (stack: BenchStack, token: string, reference: string): Promise<string> => {
  const request = { external_reference: reference, product: 'contract_viewer' };
  const answer = await upload(
    `${stack.production}/v1/contract-reviews`,
    token,
    contractParts(await contractPdf(3), request),
  );
  if (answer.status !== 202) throw new Error(`small upload answered ${answer.status}: ${answer.text}`);
  return answer.body.id as string;
};

interface UploadRun extends UploadTiming {
  baselineMs: number;
  baselineCpuMs: number;
  /** The same body sent to the bare floor server (bench/bare-upload-server.ts), between the two. */
  floorMs: number;
  floorCpuMs: number;
  bodyBytes: number;
  /** Peak RSS growth over the pre-upload RSS: the larger of the sampled and the kernel's peak. */
  growth: number;
  /** The wait before it for earlier contracts to leave the pipeline. */
  settled: Settled;
}

/**
 * One paired sample per fresh stack: a small warm-up contract (as every section starts with), the
 * pipeline settled, then the baseline and right after it the first 100 MiB upload of that process. A
 * first upload against one baseline is noise on a shared machine (1.08–1.46x on unchanged code), so the
 * score is the median of the pairs' ratios, each taken under the same load as its own baseline.
 */
const uploadRuns = async (
  token: (stack: BenchStack) => Promise<string>,
  startFresh: () => Promise<BenchStack>,
  workDir: string,
): Promise<UploadRun[]> => {
  const pdfPath = path.join(workDir, 'contract-100mib.pdf');
  progress(`writing a ${toMiB(PDF_BYTES)} MiB PDF…`);
  await writeLargePdf(pdfPath, PDF_BYTES);
  const request = { external_reference: `bench-large-${randomUUID()}`, product: 'contract_viewer' };
  // Each stack has a data directory of its own, so the same body (and reference) is new to each.
  const body = await writeUploadBody(pdfPath, path.join(workDir, 'body.multipart'), request);
  const floor = await startBareProcess(
    'bare-upload-server.ts',
    {
      BENCH_FILE_START: String(body.fileStart),
      BENCH_FILE_END: String(body.fileEnd),
      BENCH_UPLOAD_DIR: workDir,
    },
    '/v1/contract-reviews',
  );
  try {
    // Warm: the floor is the least a server could take, not a process's first upload.
    await sendUpload(floor.url, '', body, floor.pid);
    return await uploadPairs(token, startFresh, workDir, body, floor);
  } finally {
    await floor.stop();
  }
};

/** Each fresh stack's baseline, the floor's upload, then the stack's first 100 MiB upload (see uploadRuns). */
const uploadPairs = async (
  token: (stack: BenchStack) => Promise<string>,
  startFresh: () => Promise<BenchStack>,
  workDir: string,
  body: UploadBody,
  floor: BareServer,
): Promise<UploadRun[]> => {
  const runs: UploadRun[] = [];
  for (let run = 1; run <= UPLOAD_PROCESSES; run++) {
    progress(`upload ${run}/${UPLOAD_PROCESSES}: starting a fresh stack…`);
    const stack = await startFresh();
    try {
      const bearerToken = await token(stack);
      await sendSmallContract(stack, bearerToken, `bench-warm-up-${randomUUID()}`);
      const settled = await settle(stack, bearerToken, progress, `upload ${run}`);
      await flushDisk();
      const baseline = await baselineCopy(body, path.join(workDir, 'baseline-copy'));
      await flushDisk();
      // Before the service's upload, whose 202 starts the pipeline reading the PDF on the same cores.
      const floorTiming = await sendUpload(floor.url, '', body, floor.pid);
      await flushDisk();
      progress(`upload ${run}/${UPLOAD_PROCESSES} (${body.size} bytes)…`);
      const timing = await sendUpload(
        `${stack.production}/v1/contract-reviews`,
        bearerToken,
        body,
        stack.pid,
      );
      const lastByteUs = timing.startedUs + timing.sendMs * 1000;
      phases.push(
        { name: `upload ${run}: until the last byte is sent`, startUs: timing.startedUs, endUs: lastByteUs },
        {
          name: `upload ${run}: last byte sent to 202`,
          startUs: lastByteUs,
          endUs: timing.startedUs + timing.totalMs * 1000,
        },
      );
      runs.push({
        ...timing,
        baselineMs: baseline.wallMs,
        baselineCpuMs: baseline.cpuMs,
        floorMs: floorTiming.totalMs,
        floorCpuMs: floorTiming.serverCpuMs,
        bodyBytes: body.size,
        growth: peakGrowth(timing.memory),
        settled,
      });
    } finally {
      await stack.stop();
      await rm(stack.dataDir, { recursive: true, force: true });
    }
  }
  return runs;
};

interface Throughput {
  /** The service as built and deployed (request history on): its two loads, runs 1 and 4. */
  service: LoadFigures[];
  /** Bare node:http loaded before the service's runs and after them: its rate swings run to run. */
  bare: LoadFigures[];
  bodyBytes: number;
  settled: Settled;
  /** The same GET with request history on and off. */
  history: HistoryCost;
}

/** A contract review read and published on `stack`, and its GET answering 200: the path to load. */
const readablePath = async (stack: BenchStack, token: string, label: string) => {
  const id = await sendSmallContract(stack, token, `bench-read-${randomUUID()}`);
  // Loads only reads: the contracts sent so far (this one included) are read and published first.
  const settled = await settle(stack, token, progress, label);
  const pathname = `/v1/contract-reviews/${id}`;
  const answer = await capture(`${stack.production}${pathname}`, bearer(token));
  if (answer.status !== 200) throw new Error(`GET ${pathname} answered ${answer.status}`);
  return { pathname, answer, settled };
};

const throughput = async (
  stack: BenchStack,
  token: string,
  cleanup: Cleanup,
  workDir: string,
): Promise<Throughput> => {
  const { pathname, answer, settled } = await readablePath(stack, token, 'get');
  const headers = bearer(token);
  // The same build with REQUEST_HISTORY=off, beside it, with a contract of its own to read.
  const offPortBase = await freePortBase();
  progress(`starting a second stack with REQUEST_HISTORY=off (PORT_BASE=${offPortBase})…`);
  const offStack = await startStack(
    offPortBase,
    path.join(workDir, `data-history-off-${randomUUID()}`),
    PROFILE_FLAGS,
    { REQUEST_HISTORY: 'off' },
    stack.root,
  );
  cleanup.add(offStack.stop);
  const offToken = await productionToken(offStack);
  const off = await readablePath(offStack, offToken, 'get, history off');
  const bareServer = await startBareServer(answer, pathname);
  cleanup.add(bareServer.stop);
  progress(`loading the bare server (${answer.body.length}-byte body, same headers)…`);
  const bareBefore = await load(bareServer.url, headers, bareServer.pid);
  const history = await phase('GET loads, history on and off (incl. warm-ups)', () =>
    historyCost(
      { stack, url: `${stack.production}${pathname}`, headers },
      { stack: offStack, url: `${offStack.production}${off.pathname}`, headers: bearer(offToken) },
      progress,
    ),
  );
  await offStack.stop();
  const [run1, run4] = history.on;
  const [run2, run3] = history.off;
  for (const [name, run] of [
    ['GET run 1, history on (measured)', run1],
    ['GET run 2, history off (measured)', run2],
    ['GET run 3, history off (measured)', run3],
    ['GET run 4, history on (measured)', run4],
  ] as const)
    if (run) phases.push({ name, startUs: run.figures.measuredUs.start, endUs: run.figures.measuredUs.end });
  const service = history.on.map((run) => run.figures);
  progress(`loading the bare server again (${answer.body.length}-byte body, same headers)…`);
  const bareAfter = await load(bareServer.url, headers, bareServer.pid);
  await bareServer.stop();
  const bare = [bareBefore, bareAfter];
  return { service, bare, bodyBytes: answer.body.length, settled, history };
};

const uploadTable = (runs: UploadRun[]) =>
  table([
    [
      'run',
      'upload→202',
      'last byte sent',
      'status line',
      'baseline',
      'ratio',
      'floor',
      'floor ratio',
      'server CPU',
      'baseline CPU',
      'client CPU',
      'RSS before',
      'RSS growth',
      'sampled',
      'VmHWM',
      'waited first',
    ],
    ...runs.map((run, i) => [
      String(i + 1),
      ms(run.totalMs),
      ms(run.sendMs),
      ms(run.answerMs),
      ms(run.baselineMs),
      ratio(run.totalMs / run.baselineMs),
      ms(run.floorMs),
      ratio(run.floorMs / run.baselineMs),
      ms(run.serverCpuMs),
      ms(run.baselineCpuMs),
      ms(run.clientCpuMs),
      mib(toMiB(run.memory.before)),
      mib(toMiB(run.growth)),
      `${mib(toMiB(run.memory.sampledPeak - run.memory.before))} (${run.memory.samples})`,
      run.memory.kernelPeak === null ? 'n/a' : mib(toMiB(run.memory.kernelPeak - run.memory.before)),
      `${ms(run.settled.waitedMs)}${run.settled.stillBusy > 0 ? ' (STILL BUSY)' : ''}`,
    ]),
  ]);

const loadTable = ({ service, bare }: Throughput) =>
  table([
    [
      'target',
      'req/s',
      'p50',
      'p99',
      'requests',
      '2xx',
      'non-2xx',
      'errors',
      'timeouts',
      'server CPU',
      'its children',
      'client CPU',
      'server µs/req',
      'warm-up',
    ],
    ...[
      ['service GET, run 1 (history on)', service[0]],
      ['service GET, run 4 (history on)', service[1]],
      ['bare node:http, before', bare[0]],
      ['bare node:http, after', bare[1]],
    ].map(([name, f]) => {
      const figures = f as LoadFigures;
      return [
        name as string,
        figures.requestsPerSecond.toFixed(0),
        `${figures.latencyP50Ms} ms`,
        `${figures.latencyP99Ms} ms`,
        String(figures.total),
        String(figures.ok),
        String(figures.non2xx),
        String(figures.errors),
        String(figures.timeouts),
        `${figures.cpu.server.toFixed(1)} s`,
        `${figures.cpu.serverChildren.toFixed(1)} s`,
        `${figures.cpu.client.toFixed(1)} s`,
        figures.cpu.serverMicrosPerRequest.toFixed(0),
        warmedUp(figures),
      ];
    }),
  ]);

/** How long the warm-up before a run took, and whether it ended on its bound rather than steady rates. */
const warmedUp = (figures: LoadFigures) =>
  `${figures.warmUpSeconds} s${figures.warmUpSteady ? '' : ' (BOUND, not steady)'}`;

const machine = () => ({
  cpus: availableParallelism(),
  cpu_model: cpus()[0]?.model ?? 'unknown',
  node: process.version,
  load_average_at_start: round(LOAD_AVERAGE_AT_START),
});

const printMachine = () => {
  const m = machine();
  console.log(
    `\nMachine: ${m.cpus} CPUs (${m.cpu_model}), Node ${m.node}, ` +
      `1-min load average at start ${m.load_average_at_start}`,
  );
};

const summariseUpload = (runs: UploadRun[]) => {
  const ratios = runs.map((run) => run.totalMs / run.baselineMs);
  const uploadRatio = median(ratios);
  const growthMiB = toMiB(Math.max(...runs.map((run) => run.growth)));
  return {
    upload: {
      pdf_bytes: PDF_BYTES,
      body_bytes: runs[0]?.bodyBytes,
      fresh_processes: runs.length,
      runs_ms: runs.map((run) => round(run.totalMs, 0)),
      last_byte_sent_ms: runs.map((run) => round(run.sendMs, 0)),
      server_cpu_ms: runs.map((run) => round(run.serverCpuMs, 0)),
      baseline_cpu_ms: runs.map((run) => round(run.baselineCpuMs, 0)),
      median_ms: round(median(runs.map((run) => run.totalMs)), 0),
      baseline_runs_ms: runs.map((run) => round(run.baselineMs, 0)),
      baseline_median_ms: round(median(runs.map((run) => run.baselineMs)), 0),
      ratios: ratios.map((value) => round(value)),
      ratio: round(uploadRatio),
      ratio_spread: [round(Math.min(...ratios)), round(Math.max(...ratios))],
      floor_runs_ms: runs.map((run) => round(run.floorMs, 0)),
      floor_cpu_ms: runs.map((run) => round(run.floorCpuMs, 0)),
      floor_ratio: round(median(runs.map((run) => run.floorMs / run.baselineMs))),
      over_floor: round(median(runs.map((run) => run.totalMs / run.floorMs))),
      cpu_ratio: round(median(runs.map((run) => run.serverCpuMs / run.baselineCpuMs))),
      rss_growth_mib: runs.map((run) => round(toMiB(run.growth), 1)),
      rss_growth_max_mib: round(growthMiB, 1),
    },
    goals: {
      upload_ratio_at_most_1_25: uploadRatio <= GOALS.uploadRatio,
      rss_growth_under_64_mib: growthMiB < GOALS.memoryGrowthMiB,
    },
  };
};

const historyRows = ({ history }: Throughput) =>
  table([
    ['run', 'history', 'req/s', 'p50', 'p99', 'server µs/req', 'its children µs/req', 'recorded', 'warm-up'],
    ...[
      [1, 'on', history.on[0]],
      [2, 'off', history.off[0]],
      [3, 'off', history.off[1]],
      [4, 'on', history.on[1]],
    ].map(([run, state, r]) => {
      const { figures, recorded, answered } = r as HistoryCost['on'][number];
      return [
        String(run),
        state as string,
        figures.requestsPerSecond.toFixed(0),
        `${figures.latencyP50Ms} ms`,
        `${figures.latencyP99Ms} ms`,
        ((figures.cpu.server * 1e6) / Math.max(1, figures.total)).toFixed(0),
        ((figures.cpu.serverChildren * 1e6) / Math.max(1, figures.total)).toFixed(0),
        recorded === undefined ? '' : `${recorded} of ${answered}`,
        warmedUp(figures),
      ];
    }),
  ]);

const summariseHistory = ({ history }: Throughput) => {
  const ratioOnOff = meanRps(history.on) / meanRps(history.off);
  const recorded = history.on.reduce((sum, run) => sum + (run.recorded ?? 0), 0);
  const answered = history.on.reduce((sum, run) => sum + (run.answered ?? 0), 0);
  return {
    history: {
      on_rps: round(meanRps(history.on), 0),
      off_rps: round(meanRps(history.off), 0),
      ratio: round(ratioOnOff, 3),
      on_runs_rps: history.on.map((run) => round(run.figures.requestsPerSecond, 0)),
      off_runs_rps: history.off.map((run) => round(run.figures.requestsPerSecond, 0)),
      on_server_cpu_us_per_request: round(meanServerMicros(history.on), 0),
      off_server_cpu_us_per_request: round(meanServerMicros(history.off), 0),
      on_children_cpu_us_per_request: round(meanChildMicros(history.on), 0),
      off_children_cpu_us_per_request: round(meanChildMicros(history.off), 0),
      recorded,
      answered,
      recorded_share: round(recorded / Math.max(1, answered), 3),
      drain_gave_up: history.on.some((run) => run.drainGaveUp === true),
    },
    // Not judged when run 1's drain gave up: the off runs after it then shared the machine with its
    // history still being written, which slows them and flatters history on.
    goals: {
      history_ratio_at_least_0_95: history.on[0]?.drainGaveUp ? null : ratioOnOff >= GOALS.historyRatio,
    },
  };
};

const summariseGet = (reads: Throughput) => {
  const serviceRps = mean(reads.service.map((run) => run.requestsPerSecond));
  const bareRps = mean(reads.bare.map((run) => run.requestsPerSecond));
  const share = serviceRps / bareRps;
  const history = summariseHistory(reads);
  return {
    get: {
      connections: LOAD.connections,
      duration_s: LOAD.durationS,
      warm_up: WARM_UP,
      warm_up_s: {
        service: reads.service.map((run) => run.warmUpSeconds),
        bare: reads.bare.map((run) => run.warmUpSeconds),
        all_steady: [...reads.service, ...reads.bare].every((run) => run.warmUpSteady),
      },
      body_bytes: reads.bodyBytes,
      service_rps: round(serviceRps, 0),
      bare_rps: round(bareRps, 0),
      bare_runs_rps: reads.bare.map((run) => round(run.requestsPerSecond, 0)),
      share: round(share, 3),
      service_server_cpu_us_per_request: round(
        mean(reads.service.map((run) => run.cpu.serverMicrosPerRequest)),
        0,
      ),
      bare_server_cpu_us_per_request: round(mean(reads.bare.map((run) => run.cpu.serverMicrosPerRequest)), 0),
      service_non2xx: reads.service.reduce((sum, run) => sum + run.non2xx + run.errors, 0),
      bare_non2xx: reads.bare.reduce((sum, run) => sum + run.non2xx + run.errors, 0),
      history: history.history,
    },
    goals: {
      get_share_at_least_35_percent: share >= GOALS.throughputShare,
      all_get_answers_200: [...reads.history.on, ...reads.history.off].every(
        (run) => run.figures.non2xx + run.figures.errors === 0,
      ),
      ...history.goals,
    },
  };
};

const printUpload = (runs: UploadRun[]) => {
  const { upload: up, goals } = summariseUpload(runs);
  console.log(
    `\n1. Upload of a ${toMiB(PDF_BYTES)} MiB PDF (multipart body ${up.body_bytes} bytes, from a file)`,
  );
  console.log(
    `   ${up.fresh_processes} fresh stacks, each: a small warm-up contract, then the baseline, the floor and ` +
      'right after them the first 100 MiB upload of that process',
  );
  console.log('   baseline = read the same body, SHA-256 it, write it to a new file, fsync at the end\n');
  console.log(uploadTable(runs));
  console.log(
    `\n   median of the ${up.fresh_processes} pairs' ratios ${ratio(up.ratio)} ` +
      `(spread ${ratio(up.ratio_spread[0] ?? 0)}–${ratio(up.ratio_spread[1] ?? 0)}; upload median ` +
      `${ms(up.median_ms)}, baseline median ${ms(up.baseline_median_ms)}; ` +
      `goal ≤ ${GOALS.uploadRatio}x: ${verdict(goals.upload_ratio_at_most_1_25)})`,
  );
  console.log(
    `   floor: the least any server must do with the body (bench/bare-upload-server.ts: the body's and the ` +
      `PDF's SHA-256, the PDF to a file) took ${ratio(up.floor_ratio)} the baseline (median); the service ` +
      `took ${ratio(up.over_floor)} the floor`,
  );
  console.log(
    `   CPU time: server ${ratio(up.cpu_ratio)} the baseline's (median of the pairs; a check that is less ` +
      'sensitive to other load on the machine than wall time)',
  );
  console.log(
    `   peak RSS growth ${mib(up.rss_growth_max_mib)} (the larger of 20 ms samples and the kernel's VmHWM; ` +
      `goal < ${GOALS.memoryGrowthMiB} MiB: ${verdict(goals.rss_growth_under_64_mib)})`,
  );
};

const printGet = (reads: Throughput) => {
  const { get, goals } = summariseGet(reads);
  console.log(
    `\n2. GET /v1/contract-reviews/{id}: ${LOAD.connections} connections, ${LOAD.durationS} s, ` +
      `${get.body_bytes}-byte answer; before each run an untimed warm-up until ${WARM_UP.steadySeconds} ` +
      `consecutive 1 s rates agree within ${percent(WARM_UP.tolerance)} (${WARM_UP.minS}–${WARM_UP.maxS} s)\n`,
  );
  const waited = settledLine(reads.settled);
  if (waited) console.log(waited);
  console.log(loadTable(reads));
  console.log(
    `\n   service (history on, mean of runs 1 and 4)/bare (mean of its two) ${percent(get.share)} ` +
      `(goal ≥ ${percent(GOALS.throughputShare)}: ${verdict(goals.get_share_at_least_35_percent)}); ` +
      `every service answer 200: ${goals.all_get_answers_200 ? 'yes' : `NO ${JSON.stringify(reads.service.map((run) => run.statusCodes))}`}`,
  );
  const { history } = get;
  console.log(
    '\n   Request history: the same GET on this stack (history on) and on a second one with ' +
      'REQUEST_HISTORY=off, in turn; after each run with it on, the wait until its records are written\n',
  );
  console.log(historyRows(reads));
  console.log(
    `\n   on ${history.on_rps} req/s vs off ${history.off_rps} req/s: ${ratio(history.ratio)} ` +
      `(goal ≥ ${GOALS.historyRatio}: ${
        goals.history_ratio_at_least_0_95 === null
          ? "NOT JUDGED: run 1's history was still being written when the wait gave up, so the off runs shared the machine with its writes"
          : verdict(goals.history_ratio_at_least_0_95)
      }); ` +
      `${percent(history.recorded_share)} of the answered requests recorded ` +
      '("its children" is DynamoDB Local and the S3 twin)',
  );
};

interface Checkout {
  /** `before` or `after` when BENCH_BEFORE is set. */
  label: string | undefined;
  root: string;
}

/** A checkout's last commit, as a report names it. */
const commitOf = (root: string): string => {
  try {
    return execFileSync('git', ['-C', root, 'log', '-1', '--format=%h %s'], { encoding: 'utf8' }).trim();
  } catch {
    return 'not a git checkout';
  }
};

/** Sections 1 and 2 (whichever ran), then one JSON line of the machine and their figures and goals. */
const printReport = (runs: UploadRun[] | undefined, reads: Throughput | undefined, checkout: Checkout) => {
  const upload = runs && summariseUpload(runs);
  const get = reads && summariseGet(reads);
  const commit = checkout.label ? commitOf(checkout.root) : '';
  if (checkout.label) console.log(`\n== ${checkout.label}: ${checkout.root} (${commit.slice(0, 100)})`);
  if (runs) printUpload(runs);
  if (reads) printGet(reads);
  const summary = {
    ...(checkout.label && { checkout: checkout.label, commit: commit.split(' ')[0] }),
    machine: machine(),
    ...(upload && { upload: upload.upload }),
    ...(get && { get: get.get }),
    goals: { ...upload?.goals, ...get?.goals },
  };
  console.log(`\n${JSON.stringify(summary)}`);
};

interface Measured {
  runs: UploadRun[] | undefined;
  reads: Throughput | undefined;
}

/** The same figures of the checkout measured before (BENCH_BEFORE) and this one, side by side. */
const printBeforeAfter = (before: Measured, after: Measured) => {
  const figures = ({ runs, reads }: Measured) => {
    const upload = runs && summariseUpload(runs).upload;
    const get = reads && summariseGet(reads).get;
    return {
      upload_ratio: upload?.ratio,
      upload_over_floor: upload?.over_floor,
      upload_rss_growth_max_mib: upload?.rss_growth_max_mib,
      get_service_rps: get?.service_rps,
      get_share: get?.share,
      get_server_cpu_us_per_request: get?.service_server_cpu_us_per_request,
    };
  };
  const [b, a] = [figures(before), figures(after)];
  const rows = [
    [
      'upload: first 100 MiB upload / its baseline (median)',
      b.upload_ratio,
      a.upload_ratio,
      'lower is better',
    ],
    ['upload: over the bare floor (median)', b.upload_over_floor, a.upload_over_floor, 'lower is better'],
    [
      'upload: RSS growth max (MiB)',
      b.upload_rss_growth_max_mib,
      a.upload_rss_growth_max_mib,
      'lower is better',
    ],
    ['get: service GETs a second (history on)', b.get_service_rps, a.get_service_rps, 'higher is better'],
    ['get: share of bare Node', b.get_share, a.get_share, 'higher is better'],
    [
      'get: server CPU µs a request',
      b.get_server_cpu_us_per_request,
      a.get_server_cpu_us_per_request,
      'lower is better',
    ],
  ].filter(([, x, y]) => x !== undefined && y !== undefined);
  console.log('\n== before and after, in this run (each against its own baselines, measured beside it)\n');
  console.log(
    table([
      ['figure', 'before', 'after', 'after/before', ''],
      ...rows.map(([name, x, y, better]) => [
        String(name),
        String(x),
        String(y),
        ratio(Number(y) / Number(x)),
        String(better),
      ]),
    ]),
  );
  console.log(`\n${JSON.stringify({ before_after: { before: b, after: a } })}`);
};

/**
 * The upload and GET sections against another checkout's stacks (BENCH_BEFORE), before this one's are
 * measured; its report printed under its label. Its GET stack is stopped before this one's starts.
 */
const measureBefore = async (
  checkout: Checkout,
  sections: Set<Section>,
  startFresh: (root: string) => Promise<BenchStack>,
  cleanup: Cleanup,
  workDir: string,
): Promise<Measured> => {
  progress(`measuring the checkout before: ${checkout.root} (${commitOf(checkout.root)})`);
  const runs = sections.has('upload')
    ? await uploadRuns(productionToken, () => startFresh(checkout.root), workDir)
    : undefined;
  let reads: Throughput | undefined;
  if (sections.has('get')) {
    const stack = await startFresh(checkout.root);
    try {
      const token = await productionToken(stack);
      progress('warm-up upload (small PDF)…');
      await sendSmallContract(stack, token, `bench-warm-up-${randomUUID()}`);
      reads = await throughput(stack, token, cleanup, workDir);
    } finally {
      await stack.stop();
    }
  }
  printReport(runs, reads, checkout);
  return { runs, reads };
};

const main = async () => {
  const sections = chosenSections(process.argv.slice(2));
  const cleanup = new Cleanup();
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    progress('interrupted: stopping…');
    void cleanup.run().then(() => process.exit(130));
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    progress(`sections: ${[...sections].join(', ')}`);
    const workDir = await mkdtemp(path.join(tmpdir(), 'contract-bench-'));
    cleanup.add(() => rm(workDir, { recursive: true, force: true }));
    let stack: BenchStack | undefined;
    let token = '';
    // The upload section starts fresh stacks of its own (uploadRuns): it needs none of this one.
    const contractSections =
      sections.has('get') || sections.has('publish') || sections.has('client') || sections.has('phone');
    if (PROFILE_DIR) {
      await mkdir(PROFILE_DIR, { recursive: true });
      cleanup.add(() => writeFile(path.join(PROFILE_DIR, 'phases.json'), JSON.stringify(phases)));
    }
    let stacksStarted = 0;
    const startFresh = async (root = ROOT) => {
      const portBase = await freePortBase();
      progress(
        `starting a local stack${root === ROOT ? '' : ` of ${root}`} (PORT_BASE=${portBase}, RATE_LIMITS=off)…`,
      );
      const started = await startStack(
        portBase,
        path.join(workDir, `data-${++stacksStarted}`),
        PROFILE_FLAGS,
        {},
        root,
      );
      cleanup.add(started.stop);
      return started;
    };
    const measuredBefore =
      BEFORE && (sections.has('upload') || sections.has('get'))
        ? await measureBefore({ label: 'before', root: BEFORE }, sections, startFresh, cleanup, workDir)
        : undefined;
    if (contractSections || sections.has('webhooks') || sections.has('back-office')) {
      const started = await startFresh();
      stack = started;
      token = await productionToken(started);
      // The webhooks section warms up its own path, and needs no contract in the pipeline beside it.
      if (contractSections) {
        progress('warm-up upload (small PDF)…');
        await sendSmallContract(started, token, `bench-warm-up-${randomUUID()}`);
      }
    }
    printMachine();
    const runs = sections.has('upload')
      ? await uploadRuns(productionToken, () => startFresh(), workDir)
      : undefined;
    const reads = stack && sections.has('get') ? await throughput(stack, token, cleanup, workDir) : undefined;
    if (runs || reads) printReport(runs, reads, { label: BEFORE && 'after', root: ROOT });
    if (measuredBefore) printBeforeAfter(measuredBefore, { runs, reads });
    if (sections.has('render')) await renderingSection(workDir, progress);
    if (stack && sections.has('publish')) {
      const running = stack;
      await phase('upload to contract_viewer published', () => publishSection(running, token, progress));
    }
    if (stack && sections.has('webhooks')) {
      const running = stack;
      await phase('webhook deliveries', () => webhooksSection(running, token, progress));
    }
    if (sections.has('functions')) await functionsSection(workDir, progress);
    if (stack && sections.has('client')) {
      const running = stack;
      await phase('the typed client upload', () => clientSection(running, workDir, progress));
    }
    if (sections.has('fidelity'))
      await fidelitySection(workDir, fidelityFolder(process.argv.slice(2)), progress);
    if (sections.has('analysis')) analysisSection(progress);
    if (stack && sections.has('phone')) {
      const running = stack;
      await phase('the viewer on a slow phone', () => phoneSection(running, token, progress));
    }
    if (stack && sections.has('back-office')) {
      const running = stack;
      await phase('the back office’s Reviews list', () => backOfficeSection(running, progress));
    }
  } catch (error) {
    // After an interrupt the steps under way fail as their servers stop: that is not the news.
    if (!interrupted) throw error;
  } finally {
    await cleanup.run();
  }
};

await main();
