// test support -> a test file's way to a stack it shares with other files (shared-stacks-host.ts keeps
// them for the whole Jest run). A file may share one when it never stops, restarts or reconfigures the
// stack and keeps apart by its data: organisations it creates (createTenant), fresh keys, its own ids and
// references; never `dev-bootstrap`'s one local organisation for anything another file could also
// list. A file that floods a stack to reach its rate limits keeps its own: the flood would slow every
// other file's requests, and with them the rate tests of a file sharing it. Without the host (a file
// run outside `npm run jest`) the file starts a stack of its own.
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { type RunningStack, type StackOptions, stackAddresses, useLocalStack } from './local-stack';

/** The environment variable that gives test files the host's address (set by Jest's globalSetup). */
export const SHARED_STACKS_VARIABLE = 'SHARED_STACKS_URL';

/** What a test file is told of a shared stack (a RunningStack's addresses follow from `portBase`). */
export interface SharedStackAnswer {
  portBase: number;
  dataDir: string;
  /** All of the stack's output. */
  logFile: string;
}

/** The shared stacks' host, when this test run has one. */
export const sharedStacksHost = (): string | undefined => process.env[SHARED_STACKS_VARIABLE];

/** Asks the host for a shared service; it starts it if no file has yet. */
export const askSharedStacksHost = async <T>(host: string, what: string, body: unknown): Promise<T> => {
  const response = await fetch(`${host}${what}`, { method: 'POST', body: JSON.stringify(body) });
  const answer = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(`the shared stacks' host could not give ${what}: ${answer.error}`);
  return answer;
};

const notYours = async (): Promise<never> => {
  throw new Error('a shared stack serves other test files too: a file that stops one needs useLocalStack');
};

const sharedStack = ({ portBase, dataDir, logFile }: SharedStackAnswer): RunningStack => ({
  portBase,
  dataDir,
  ...stackAddresses(portBase),
  stop: notYours,
  kill: notYours,
  output: () => readFileSync(logFile, 'utf8').slice(-100_000),
  // In bytes of the log file: every file sharing the stack adds to it.
  outputMark: () => statSync(logFile).size,
  outputSince: (mark) => readFrom(logFile, mark),
});

/** The file's bytes from `offset` to its end, as text. */
const readFrom = (file: string, offset: number): string => {
  const descriptor = openSync(file, 'r');
  try {
    const size = statSync(file).size;
    const bytes = Buffer.alloc(Math.max(0, size - offset));
    let read = 0;
    while (read < bytes.length) {
      const got = readSync(descriptor, bytes, read, bytes.length - read, offset + read);
      if (got === 0) break;
      read += got;
    }
    return bytes.subarray(0, read).toString('utf8');
  } finally {
    closeSync(descriptor);
  }
};

/**
 * The shared local stack with these settings (`env`, as useLocalStack takes them), for the calling test
 * file: given to `use` before the file's own `beforeAll`, like useLocalStack's own stack.
 */
export const useSharedStack = (
  use: (stack: RunningStack) => void,
  options: Pick<StackOptions, 'env'> = {},
): void => {
  const host = sharedStacksHost();
  if (host === undefined) {
    useLocalStack(use, options);
    return;
  }
  beforeAll(async () => {
    use(sharedStack(await askSharedStacksHost<SharedStackAnswer>(host, '/stack', options.env ?? {})));
    // Another file may be starting it: the wait is for that start (shared-stacks-host.ts allows 240 s).
  }, 300_000);
};
