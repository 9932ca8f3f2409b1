// test -> the real local stack (`bin/local.ts`) as a child process on its own ports and data directory,
// the way `npm start` runs it, and the operator tool beside it.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
/** The project's own Node (the `node` dev dependency), which `npm start` runs the stack on. */
const NODE = path.join(ROOT, 'node_modules/.bin/node');

export interface RunningStack {
  portBase: number;
  dataDir: string;
  production: string;
  sandbox: string;
  /** The hosted pages of each environment. */
  pages: { production: string; sandbox: string };
  /** The onboarding frame of each environment. */
  frame: { production: string; sandbox: string };
  /** Stops the stack (SIGTERM) and waits for it to exit; resolves with its exit code. */
  stop(): Promise<number | null>;
  /** Kills the stack (SIGKILL: a crash, nothing of it runs) and waits for it to be gone. */
  kill(): Promise<void>;
  /** The stack's output so far, for failure messages (a shared stack's: its last 100,000 characters). */
  output(): string;
  /** A place in the stack's output, to read what it writes after it with `outputSince`. */
  outputMark(): number;
  /** All that the stack has written since `mark`, however much that is. */
  outputSince(mark: number): string;
}

/** A stack this process started: it also learns when the stack's process ends, however it ended. */
export interface OwnStack extends RunningStack {
  exited: Promise<number | null>;
}

export interface StackOptions {
  dataDir?: string;
  portBase?: number;
  env?: Record<string, string>;
  /**
   * Where all of the stack's output goes, for a stack that serves many test files: it then keeps only the
   * tail of its output in memory.
   */
  logFile?: string;
  /** How long it may take to become ready before it is ended and the start fails (90 s by default). */
  readyWithinMs?: number;
}

/** The addresses of a stack on `portBase` (decisions.md §9's offsets). */
export const stackAddresses = (portBase: number) => ({
  production: `http://127.0.0.1:${portBase}`,
  sandbox: `http://127.0.0.1:${portBase + 1}`,
  pages: { production: `http://127.0.0.1:${portBase + 4}`, sandbox: `http://127.0.0.1:${portBase + 5}` },
  frame: { production: `http://127.0.0.1:${portBase + 2}`, sandbox: `http://127.0.0.1:${portBase + 3}` },
});

/** Jest's workers (jest.config.js `maxWorkers`), each given its own share of the port bases. */
const WORKERS = 2;
const worker = (Number(process.env.JEST_WORKER_ID ?? 1) - 1) % WORKERS;
/** The last share is the shared stacks' (test/support/shared-stacks.ts, started by Jest's own process). */
export const SHARED_STACKS_SLOT = WORKERS;
const SLOTS = WORKERS + 1;
/**
 * Below the kernel's ephemeral range (32768 up), where outgoing connections would take ports; a worker's
 * stacks never take another worker's bases (nor the shared stacks'), so two test files running at once
 * cannot collide.
 */
export const randomPortBase = (slot: number = worker) =>
  10_000 + 20 * (SLOTS * Math.floor(Math.random() * Math.floor(1_100 / SLOTS)) + slot);

/** How much of a logged stack's output stays in memory (the ready line, a crash's last words). */
const OUTPUT_TAIL = 100_000;

/**
 * Ends the DynamoDB Local of a stack that was killed (by the process id it keeps beside its data), if that
 * process is still DynamoDB Local.
 */
const endDynamoDbLocalOf = async (dataDir: string): Promise<void> => {
  const pid = Number(
    (await readFile(path.join(dataDir, 'dynamodb', 'dynamodb-local.pid'), 'utf8').catch(() => '')).trim(),
  );
  if (!Number.isInteger(pid) || pid <= 0) return;
  const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (commandLine.includes('DynamoDBLocal')) process.kill(pid, 'SIGKILL');
};

export const makeDataDir = () => mkdtemp(path.join(tmpdir(), 'service-test-'));

export const startStack = async (options: StackOptions = {}): Promise<OwnStack> => {
  const dataDir = options.dataDir ?? (await makeDataDir());
  const portBase = options.portBase ?? randomPortBase();
  const readyWithinMs = options.readyWithinMs ?? 90_000;
  // One Node process, as `npm start` runs it: the tsx CLI would relay SIGTERM and, when the busy stack
  // does not confirm it within 60 ms, SIGKILL it (exit 143), which is no graceful stop.
  const child: ChildProcess = spawn(NODE, ['--import', 'tsx', 'bin/local.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT_BASE: String(portBase), DATA_DIR: dataDir, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  /** Characters of the output no longer kept in memory (a logged stack keeps its tail). */
  let dropped = 0;
  const log = options.logFile === undefined ? undefined : createWriteStream(options.logFile, { flags: 'a' });
  const keep = (chunk: Buffer) => {
    log?.write(chunk);
    output += chunk.toString();
    if (log && output.length > 2 * OUTPUT_TAIL) {
      dropped += output.length - OUTPUT_TAIL;
      output = output.slice(-OUTPUT_TAIL);
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  // A stack that dies mid-test says why, on the test run's own output.
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM' && signal !== 'SIGKILL')
      console.error(`local stack exited (${code ?? signal}):\n${output.slice(-8_000)}`);
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      log?.end();
      resolve(code);
    }),
  );
  await new Promise<void>((resolve, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      // Not left running: a stack that never became ready would keep the test run from exiting, and
      // its DynamoDB Local (Java outlives a SIGKILLed parent) would hold its port and CPU until the end.
      child.kill('SIGKILL');
      // Before the caller hears, who may remove the data directory and with it the process id.
      void endDynamoDbLocalOf(dataDir).finally(() =>
        reject(new Error(`local stack did not start within ${readyWithinMs / 1_000} s:\n${output}`)),
      );
    }, readyWithinMs);
    const check = () => {
      if (output.includes('Local stack ready')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      if (!timedOut) reject(new Error(`local stack exited with ${code} before it was ready:\n${output}`));
    });
  });
  return {
    portBase,
    dataDir,
    ...stackAddresses(portBase),
    exited,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    output: () => output,
    outputMark: () => dropped + output.length,
    outputSince: (mark) => {
      if (mark < dropped) throw new Error('that part of the output is no longer kept: read its log file');
      return output.slice(mark - dropped);
    },
  };
};

export const removeDataDir = (dataDir: string) => rm(dataDir, { recursive: true, force: true });

/** Commands print JSON; `--help` prints the usage. */
const jsonOrUndefined = (stdout: string): Record<string, unknown> | undefined => {
  try {
    return JSON.parse(stdout) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

/** What one run of the operator tool did: its exit code, stdout and stderr, and stdout as JSON. */
export interface OpsResult {
  code: number;
  stdout: string;
  stderr: string;
  json: Record<string, unknown> | undefined;
}

/** The operator tool's `main` (bin/ops.ts) in this process, with `env` as the environment it reads. */
const opsInProcess = async (env: NodeJS.ProcessEnv, args: string[]): Promise<OpsResult> => {
  // Loaded on first use: test files that never call the tool do not load the whole service.
  const { main } = await import('../../bin/ops');
  let stdout = '';
  let stderr = '';
  const code = await main(args, env, {
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr, json: code === 0 ? jsonOrUndefined(stdout) : undefined };
};

/**
 * Runs the operator tool's `main` (bin/ops.ts) beside `stack`, in this process: the same code as
 * `npm run --silent ops -- …` without a new Node and a compile of the tool per call (about 2 s each, idle).
 * The tool as a process is tested where that is the point (ops-system-node, readme-walkthrough, `startOps`).
 */
export const ops = async (
  stack: Pick<RunningStack, 'portBase' | 'dataDir'>,
  ...args: string[]
): Promise<OpsResult> =>
  opsInProcess({ ...process.env, PORT_BASE: String(stack.portBase), DATA_DIR: stack.dataDir }, args);

/** Makes `process.env` hold exactly `env`. */
const replaceProcessEnv = (env: NodeJS.ProcessEnv) => {
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  for (const [name, value] of Object.entries(env)) if (value !== undefined) process.env[name] = value;
};

/**
 * Runs the operator tool with exactly `env` (a deployed stage's: its AWS settings, no local stack's), in
 * this process: `process.env` is `env` for the call, since the AWS SDK's default chain (region,
 * credentials, AWS_ENDPOINT_URL_*) reads the process's environment, and is put back after. A test awaits
 * each call before the next (two at once would share one environment); `opsProcessWithEnv` runs the tool
 * as its own process, for the end-to-end checks.
 */
export const opsWithEnv = async (env: NodeJS.ProcessEnv, ...args: string[]): Promise<OpsResult> => {
  const own = { ...process.env };
  replaceProcessEnv(env);
  try {
    return await opsInProcess(env, args);
  } finally {
    replaceProcessEnv(own);
  }
};

/** `opsWithEnv`, as `npm run ops` runs it: a Node process of its own with exactly `env`. */
export const opsProcessWithEnv = (env: NodeJS.ProcessEnv, ...args: string[]): Promise<OpsResult> =>
  opsProcessIn(ROOT, env, args);

/**
 * The operator tool of the checkout at `root` (this one, or another with its own `npm ci` done: the
 * bench's BENCH_BEFORE) as a process of its own with exactly `env`.
 */
export const opsProcessIn = async (
  root: string,
  env: NodeJS.ProcessEnv,
  args: string[],
): Promise<OpsResult> => {
  const tsx = path.join(root, 'node_modules/.bin/tsx');
  try {
    const { stdout, stderr } = await promisify(execFile)(tsx, ['bin/ops.ts', ...args], { cwd: root, env });
    return { code: 0, stdout, stderr, json: jsonOrUndefined(stdout) };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr, json: undefined };
  }
};

/** A long-running operator command (`listen`): the JSON lines it printed so far, and a way to stop it. */
export interface RunningOps {
  lines(): Array<Record<string, unknown>>;
  /** Sends SIGINT (Ctrl-C) and resolves with its exit code once it has cleaned up and exited. */
  interrupt(): Promise<number | null>;
}

export const startOps = (
  stack: Pick<RunningStack, 'portBase' | 'dataDir'>,
  ...args: string[]
): RunningOps => {
  const child = spawn(TSX, ['bin/ops.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, PORT_BASE: String(stack.portBase), DATA_DIR: stack.dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    lines: () =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    interrupt: () => {
      child.kill('SIGINT');
      return exited;
    },
  };
};

export interface Bootstrap {
  organisation_id: string;
  integration_id: string;
  keys: { sandbox: string; production: string };
}

/** `ops dev-bootstrap` beside `stack`: the local organisation, integration and fresh keys. */
export const devBootstrap = async (stack: Pick<RunningStack, 'portBase' | 'dataDir'>): Promise<Bootstrap> => {
  const result = await ops(stack, 'dev-bootstrap');
  if (result.code !== 0) throw new Error(`dev-bootstrap failed: ${result.stderr}`);
  return result.json as unknown as Bootstrap;
};

/**
 * One local stack for a test file: started before its tests (before the file's own `beforeAll`, which
 * can then bootstrap on it), stopped and its data directory removed after them. `use` receives it.
 */
export const useLocalStack = (use: (stack: RunningStack) => void, options: StackOptions = {}): void => {
  let started: RunningStack | undefined;
  beforeAll(async () => {
    started = await startStack(options);
    use(started);
  }, 120_000);
  afterAll(async () => {
    if (!started) return;
    await started.stop();
    await removeDataDir(started.dataDir);
  });
};
