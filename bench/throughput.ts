// bench -> GET throughput with autocannon: the service's read of one contract review against a bare
// node:http server sending the same bytes and headers, under identical load settings.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import autocannon, { type Options, type Result } from 'autocannon';
import { countCpu, descendants } from './cpu-time';
import { NODE, ROOT } from './stack';

export const LOAD = { connections: 50, durationS: 10 } as const;

/**
 * The untimed warm-up before each measured run, the same for every target (the bare server included): it
 * goes on until the last `steadySeconds` 1 s rates agree within `tolerance` (the JIT and DynamoDB Local's
 * JVM at their steady state: a fixed 2 s left the first run at half the rate of the last), for at least
 * `minS` and at most `maxS` seconds.
 */
export const WARM_UP = { minS: 5, maxS: 30, steadySeconds: 3, tolerance: 0.1 } as const;

/** Headers the bare server must not copy: per-connection or per-answer ones Node sets itself. */
const OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
const REQUEST_ID_HEADER = 'service-request-id';

export interface CapturedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export const capture = async (url: string, headers: Record<string, string>): Promise<CapturedAnswer> => {
  const response = await fetch(url, { headers });
  const copied: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!OWN_HEADERS.has(name)) copied[name] = value;
  });
  return { status: response.status, headers: copied, body: Buffer.from(await response.arrayBuffer()) };
};

export interface LoadFigures {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  total: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** CPU seconds used during the measured run, and per request (µs) for the server's process tree. */
  cpu: { server: number; serverChildren: number; client: number; serverMicrosPerRequest: number };
  /** Requests answered during the untimed warm-up before the measured run, and its seconds. */
  warmUpTotal: number;
  warmUpSeconds: number;
  /** Whether the warm-up ended on steady rates, not on its bound. */
  warmUpSteady: boolean;
  /** The measured run's start and end on CLOCK_MONOTONIC in µs (the clock of a CPU profile). */
  measuredUs: { start: number; end: number };
}

const answered = (result: Result) =>
  Object.values(result.statusCodeStats).reduce((sum, { count }) => sum + Number(count), 0);

interface WarmUp {
  answered: number;
  seconds: number;
  steady: boolean;
}

const steady = (rates: number[]): boolean =>
  rates.length >= WARM_UP.steadySeconds &&
  Math.min(...rates) > 0 &&
  Math.max(...rates) / Math.min(...rates) <= 1 + WARM_UP.tolerance;

/** Loads until the 1 s rates hold steady (WARM_UP), or its bound. */
const warmUp = async (settings: Options): Promise<WarmUp> => {
  const rates: number[] = [];
  let stopped = false;
  const running = autocannon({ ...settings, duration: WARM_UP.maxS });
  running.on('tick', ({ counter }) => {
    if (stopped) return;
    rates.push(counter);
    if (rates.length >= WARM_UP.minS && steady(rates.slice(-WARM_UP.steadySeconds))) {
      stopped = true;
      running.stop();
    }
  });
  const result = await running;
  // The run's own end adds a last tick past the bound.
  return { answered: answered(result), seconds: Math.min(rates.length, WARM_UP.maxS), steady: stopped };
};

/** Now on CLOCK_MONOTONIC in µs, the clock a CPU profile's samples are on. */
const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

const figures = (
  result: Result,
  cpu: LoadFigures['cpu'],
  warm: WarmUp,
  measuredUs: LoadFigures['measuredUs'],
): LoadFigures => ({
  requestsPerSecond: result.requests.average,
  latencyP50Ms: result.latency.p50,
  latencyP99Ms: result.latency.p99,
  total: answered(result),
  ok: result['2xx'],
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  statusCodes: Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, Number(count)]),
  ),
  cpu,
  warmUpTotal: warm.answered,
  warmUpSeconds: warm.seconds,
  warmUpSteady: warm.steady,
  measuredUs,
});

/**
 * An untimed run first until the rates hold steady (WARM_UP: JIT, connection set-up, the stores' JVM),
 * then the measured run with the same settings, counting the CPU time of the server (`serverPid`), of the
 * processes it started, and of this client.
 */
export const load = async (
  url: string,
  headers: Record<string, string>,
  serverPid: number,
): Promise<LoadFigures> => {
  const settings = { url, headers, connections: LOAD.connections };
  const warm = await warmUp(settings);
  const children = descendants(serverPid);
  const serverCpu = countCpu([serverPid, ...children]);
  const clientCpu = process.cpuUsage();
  const start = monotonicUs();
  const result = await autocannon({ ...settings, duration: LOAD.durationS });
  const measuredUs = { start, end: monotonicUs() };
  const [server = 0, ...others] = serverCpu.stop();
  const { user, system } = process.cpuUsage(clientCpu);
  const serverChildren = others.reduce((sum, seconds) => sum + seconds, 0);
  const requests = Math.max(1, result['2xx'] + result.non2xx);
  return figures(
    result,
    {
      server,
      serverChildren,
      client: (user + system) / 1e6,
      serverMicrosPerRequest: ((server + serverChildren) * 1e6) / requests,
    },
    warm,
    measuredUs,
  );
};

export interface BareServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const firstLine = async (child: ChildProcess): Promise<string> => {
  if (!child.stdout) throw new Error('bare server has no stdout');
  const lines = createInterface({ input: child.stdout });
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`bare server exited (${code}) before listening`);
  });
  exited.catch(() => {}); // only the race below cares; a later exit is the normal stop
  const [line] = (await Promise.race([once(lines, 'line'), exited])) as [string];
  lines.close();
  return line;
};

/**
 * Starts a bare server (`script`, under bench/) in its own Node process with `env`; it prints
 * {"port":N} once listening. Its URL ends in `pathname`.
 */
export const startBareProcess = async (
  script: string,
  env: Record<string, string>,
  pathname: string,
): Promise<BareServer> => {
  const child = spawn(NODE, ['--import', 'tsx', path.join(ROOT, 'bench', script)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Last resort if this process exits before stop(): the server must not outlive the bench.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  try {
    const { port } = JSON.parse(await firstLine(child)) as { port: number };
    return { url: `http://127.0.0.1:${port}${pathname}`, pid: child.pid ?? -1, stop };
  } catch (error) {
    await stop();
    throw error;
  }
};

/** Starts bench/bare-server.ts, answering `answer`; its URL ends in `pathname`. */
export const startBareServer = async (answer: CapturedAnswer, pathname: string): Promise<BareServer> => {
  const headers = { ...answer.headers };
  delete headers[REQUEST_ID_HEADER];
  return startBareProcess(
    'bare-server.ts',
    {
      BENCH_BODY: answer.body.toString('base64'),
      BENCH_HEADERS: JSON.stringify(headers),
      BENCH_REQUEST_ID_HEADER: REQUEST_ID_HEADER,
    },
    pathname,
  );
};
