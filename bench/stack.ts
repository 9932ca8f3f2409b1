// bench -> the local stack as ONE Node process (`node --import tsx bin/local.ts`, not the tsx CLI, which
// forks a second process), so that the pid we hold is the process whose memory we read.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { exchange } from '../test/support/api-client';
import { ops, opsProcessIn } from '../test/support/local-stack';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** A checkout's own Node (the `node` dev dependency), the one its `npm start` runs on. */
const nodeOf = (root: string): string => path.join(root, 'node_modules/.bin/node');
export const NODE = nodeOf(ROOT);

/** Ports the stack takes from PORT_BASE: the eight of decisions.md §9 and its two embedded stores. */
const PORTS_USED = 12;
const READY_TIMEOUT_MS = 300_000;
/**
 * A stack's stop first writes the request history it holds (up to 10,000 records after a flood, one write
 * at a time locally); a profiled stack must be let finish, or Node never writes its .cpuprofile.
 */
const STOP_TIMEOUT_MS = process.env.BENCH_CPU_PROF ? 300_000 : 20_000;

export interface BenchStack {
  pid: number;
  /** The checkout whose `bin/local.ts` runs: this one, or another (`BENCH_BEFORE`) measured beside it. */
  root: string;
  portBase: number;
  dataDir: string;
  production: string;
  /** SIGTERM, then wait for the exit; SIGKILL of its process group only if it hangs. */
  stop(): Promise<void>;
  /** Everything the stack has printed so far (read from its output file). */
  output(): string;
}

const portFree = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/**
 * A PORT_BASE whose whole range is free right now (random, so parallel runs rarely collide), below the
 * kernel's ephemeral range (32768 up) as the tests' stacks are: there an outgoing connection of a stack
 * already running could take a port between this check and the new stack's listen (EADDRINUSE).
 */
export const freePortBase = async (): Promise<number> => {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 10_000 + 20 * Math.floor(Math.random() * 1_100);
    const checks = await Promise.all(Array.from({ length: PORTS_USED }, (_, i) => portFree(base + i)));
    if (checks.every(Boolean)) return base;
  }
  throw new Error('no free range of ports for the local stack');
};

/** How often the output file is read for the ready line while the stack starts. */
const READY_POLL_MS = 100;

const waitForReady = async (child: ChildProcess, output: () => string): Promise<void> => {
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
  });
  const deadline = performance.now() + READY_TIMEOUT_MS;
  while (!output().includes('Local stack ready')) {
    const failure =
      exited !== undefined
        ? `local stack exited (${exited}) before ready`
        : performance.now() > deadline
          ? 'local stack not ready within 300 s'
          : undefined;
    if (failure) throw new Error(`${failure}:\n${output().slice(-4_000)}`);
    await sleep(READY_POLL_MS);
  }
};

const stopChild = async (child: ChildProcess): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    // Its own group (detached): this reaches DynamoDB Local too, and nothing we did not start.
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  }, STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
};

/**
 * Starts `bin/local.ts` of the checkout at `root` (this one by default; its own `npm ci` done) with
 * RATE_LIMITS=off; `nodeFlags` go to Node itself (e.g. --cpu-prof), `env` to the stack (e.g.
 * REQUEST_HISTORY=off).
 */
export const startStack = async (
  portBase: number,
  dataDir: string,
  nodeFlags: string[] = [],
  env: Record<string, string> = {},
  root: string = ROOT,
): Promise<BenchStack> => {
  // The stack's output goes to a file, not through this process: the load generator (autocannon, here)
  // must not also read and keep a log line per request it sends, which the bare servers never print.
  await mkdir(dataDir, { recursive: true });
  const outputFile = path.join(dataDir, 'stack-output.log');
  const fd = openSync(outputFile, 'w');
  const child = spawn(nodeOf(root), [...nodeFlags, '--import', 'tsx', 'bin/local.ts'], {
    cwd: root,
    env: { ...process.env, PORT_BASE: String(portBase), DATA_DIR: dataDir, RATE_LIMITS: 'off', ...env },
    stdio: ['ignore', fd, fd],
    detached: true,
  });
  closeSync(fd);
  // Last resort if this process exits before stop() (e.g. Ctrl-C during start-up): nothing left behind.
  const killOnExit = () => {
    if (child.pid && child.exitCode === null && child.signalCode === null)
      process.kill(-child.pid, 'SIGKILL');
  };
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const output = () => readFileSync(outputFile, 'utf8');
  const stack: BenchStack = {
    pid: child.pid ?? -1,
    root,
    portBase,
    dataDir,
    production: `http://127.0.0.1:${portBase}`,
    stop: () => stopChild(child),
    output,
  };
  try {
    await waitForReady(child, stack.output);
  } catch (error) {
    await stack.stop();
    throw error;
  }
  return stack;
};

/**
 * `dev-bootstrap` by the stack's own checkout: in this process for this one, as its operator tool for
 * another (whose records may be shaped otherwise).
 */
const devBootstrap = (stack: BenchStack) =>
  stack.root === ROOT
    ? ops(stack, 'dev-bootstrap')
    : opsProcessIn(
        stack.root,
        { ...process.env, PORT_BASE: String(stack.portBase), DATA_DIR: stack.dataDir },
        ['dev-bootstrap'],
      );

/** `dev-bootstrap` beside the stack, then a production access token from its production key. */
export const productionToken = async (stack: BenchStack): Promise<string> => {
  const bootstrap = await devBootstrap(stack);
  const keys = bootstrap.json?.keys as { production?: string } | undefined;
  if (bootstrap.code !== 0 || !keys?.production)
    throw new Error(`dev-bootstrap failed (${bootstrap.code}): ${bootstrap.stderr || bootstrap.stdout}`);
  return exchange(stack.production, keys.production);
};
