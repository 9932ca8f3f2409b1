// api -> `npm start` as a person runs it (the system's npm and Node, from the repository's folder),
// stopped by a signal to npm's own process, as `kill <pid>` or a process manager sends it: the whole
// stack goes with it (npm, the shell npm runs the script in, the stack's Node, DynamoDB Local's Java
// and the S3 twin), and no port of the stack is left answering.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { eventually, isEmpty } from '../support/eventually';
import { makeDataDir, randomPortBase, removeDataDir } from '../support/local-stack';
import { readerEnv } from '../support/reader-shell';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Every process's parent, from Linux's /proc (a zombie, dead but not yet reaped, counts as gone). */
const liveParents = async (): Promise<Map<number, number>> => {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid …: the command name may hold spaces and parentheses, so read after the last ')'.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state !== undefined && state !== 'Z') parents.set(Number(entry), Number(ppid));
  }
  return parents;
};

const descendantsOf = async (root: number): Promise<number[]> => {
  const parents = await liveParents();
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const [child, parent] of parents)
      if (parent === pid) {
        found.push(child);
        walk(child);
      }
  };
  walk(root);
  return found;
};

const stillRunning = async (pids: number[]): Promise<number[]> => {
  const parents = await liveParents();
  return pids.filter((pid) => parents.has(pid));
};

/** Whether something accepts a TCP connection on 127.0.0.1:`port`. */
const answers = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

const answering = async (ports: number[]): Promise<number[]> => {
  const open = await Promise.all(ports.map(answers));
  return ports.filter((_, i) => open[i]);
};

const exitOf = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

test.each(['SIGTERM', 'SIGINT'] as const)(
  '%s to npm start stops every process of the stack and closes every port',
  async (signal) => {
    const dataDir = await makeDataDir();
    const portBase = randomPortBase();
    const npm = spawn('npm', ['start'], {
      cwd: ROOT,
      env: readerEnv({ PORT_BASE: String(portBase), DATA_DIR: dataDir }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    npm.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const pid = npm.pid ?? 0;
    let stack: number[] = [];
    try {
      await eventually(
        async () => output,
        (seen) => seen.includes('Local stack ready') || npm.exitCode !== null,
        { what: 'npm start to be ready', timeoutMs: 120_000 },
      );
      expect(output).toContain('Local stack ready');
      // The stack's own processes: below npm, at least the shell or Node, DynamoDB Local and the S3 twin.
      stack = await descendantsOf(pid);
      expect(stack.length).toBeGreaterThanOrEqual(3);
      const ports = Array.from({ length: 22 }, (_, i) => portBase + i);
      const open = await answering(ports);
      // The APIs, pages, frames, portal, identity provider, back office, DynamoDB Local and the S3 twin.
      expect(open).toEqual(
        expect.arrayContaining([0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11].map((i) => portBase + i)),
      );

      process.kill(pid, signal);
      await exitOf(npm);
      await eventually(() => stillRunning(stack), isEmpty, {
        what: `every process of the stack to end (output: ${output.slice(-2_000)})`,
        timeoutMs: 60_000,
      });
      await eventually(() => answering(open), isEmpty, {
        what: 'every port of the stack to close',
        timeoutMs: 30_000,
      });
    } finally {
      // Nothing of a failed run is left behind for the next test.
      for (const leftover of await stillRunning([pid, ...stack])) process.kill(leftover, 'SIGKILL');
      await removeDataDir(dataDir);
    }
  },
  240_000,
);
