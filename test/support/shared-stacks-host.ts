// test support -> the stacks test files share, kept by Jest's own process for the whole run (its
// globalSetup starts this host, its globalTeardown stops it): one local stack per configuration and one
// DynamoDB Local, each started when a test file first asks for it, so a run of unit tests starts none.
// Files ask over loopback HTTP (shared-stacks.ts); they stay apart by their data (their own
// organisations, keys, tables), not by process. Owned here, not by a worker: a file that fails or a
// worker that dies leaves them serving the others.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestDynamoDb, type TestDynamoDb } from './dynamodb-local';
import {
  makeDataDir,
  type OwnStack,
  randomPortBase,
  removeDataDir,
  SHARED_STACKS_SLOT,
  startStack,
} from './local-stack';
import type { SharedStackAnswer } from './shared-stacks';

export interface SharedStacksHost {
  url: string;
  stop(): Promise<void>;
}

/** A stack's settings as one key: the same settings in any order are the same stack. */
const keyOf = (env: Record<string, string>) =>
  JSON.stringify(Object.entries(env).sort(([a], [b]) => a.localeCompare(b)));

const readJson = async (request: IncomingMessage): Promise<unknown> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? {} : JSON.parse(Buffer.concat(chunks).toString('utf8'));
};

const isSettings = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' &&
  value !== null &&
  Object.values(value).every((setting) => typeof setting === 'string');

interface Shared {
  stack: OwnStack;
  logFile: string;
}

/**
 * Longer than a file's own stack may take: every file sharing it waits on this one start, and on a loaded
 * machine two stacks may start at once beside the tests running.
 */
const SHARED_READY_WITHIN_MS = 240_000;

/** Another worktree's tests may hold the random port base this one drew: another draw is tried. */
const PORT_DRAWS = 3;

export const startSharedStacksHost = async (): Promise<SharedStacksHost> => {
  const logs = await mkdtemp(path.join(tmpdir(), 'shared-stacks-'));
  const stacks = new Map<string, Promise<Shared>>();
  const started: OwnStack[] = [];
  let dynamoDb: Promise<TestDynamoDb> | undefined;
  let starts = 0;

  const startOne = async (env: Record<string, string>, logFile: string): Promise<Shared> => {
    for (let draw = 1; ; draw++) {
      const dataDir = await makeDataDir();
      try {
        const stack = await startStack({
          env,
          logFile,
          dataDir,
          portBase: randomPortBase(SHARED_STACKS_SLOT),
          readyWithinMs: SHARED_READY_WITHIN_MS,
        });
        started.push(stack);
        return { stack, logFile };
      } catch (error) {
        await removeDataDir(dataDir);
        if (draw >= PORT_DRAWS || !String(error).includes('EADDRINUSE')) throw error;
      }
    }
  };

  const stackFor = (env: Record<string, string>): Promise<Shared> => {
    const key = keyOf(env);
    const known = stacks.get(key);
    if (known) return known;
    starts += 1;
    const starting = startOne(env, path.join(logs, `stack-${starts}.log`));
    stacks.set(key, starting);
    // One that failed to start, or that ended mid-run, is started afresh for the next file that asks:
    // the files using it when it ended fail, saying so; later ones are not wedged.
    const forget = () => {
      if (stacks.get(key) === starting) stacks.delete(key);
    };
    starting.then(({ stack }) => stack.exited.then(forget), forget);
    return starting;
  };

  const server = createServer((request, response) => {
    const answer = async (): Promise<unknown> => {
      const body = await readJson(request);
      if (request.method === 'POST' && request.url === '/stack') {
        if (!isSettings(body)) throw new Error('a stack is asked for with its settings: {"NAME":"value"}');
        const { stack, logFile } = await stackFor(body);
        return { portBase: stack.portBase, dataDir: stack.dataDir, logFile } satisfies SharedStackAnswer;
      }
      if (request.method === 'POST' && request.url === '/dynamodb') {
        dynamoDb ??= startTestDynamoDb();
        dynamoDb.catch(() => {
          dynamoDb = undefined;
        });
        return { endpoint: (await dynamoDb).endpoint };
      }
      throw new Error(`no such request: ${request.method} ${request.url}`);
    };
    // Connection: close, so no kept-alive socket holds a worker open when its files are done.
    const headers = { 'content-type': 'application/json', connection: 'close' };
    answer().then(
      (body) => response.writeHead(200, headers).end(JSON.stringify(body)),
      (error: unknown) =>
        response
          .writeHead(500, headers)
          .end(JSON.stringify({ error: error instanceof Error ? error.message : String(error) })),
    );
  });
  // A stack's start takes long on a loaded machine: no timeout of Node's may cut the answer off.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled([...stacks.values()]);
      await Promise.all(
        started.map(async (stack) => {
          await stack.stop();
          await removeDataDir(stack.dataDir);
        }),
      );
      await (await dynamoDb?.catch(() => undefined))?.stop();
      await rm(logs, { recursive: true, force: true });
    },
  };
};

/** Jest runs globalSetup and globalTeardown in one process, but loads their modules apart: a global. */
const HOST_KEY = Symbol.for('shared-stacks-host');

export const keepHostForTeardown = (host: SharedStacksHost): void => {
  (globalThis as Record<symbol, unknown>)[HOST_KEY] = host;
};

export const keptHost = (): SharedStacksHost | undefined =>
  (globalThis as Record<symbol, unknown>)[HOST_KEY] as SharedStacksHost | undefined;
