// test support -> DynamoDB Local for adapter tests: one the test run shares (shared-stacks-host.ts starts
// it when a file first asks), or one of the file's own (a file that restarts it). Each test takes a fresh
// table, named by its process, so tests and files never see each other's items.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/document-client';
import { ensureTable, type LocalDynamoDb, startLocalDynamoDb } from '../../local/emulators/dynamodb-local';
import { askSharedStacksHost, sharedStacksHost } from './shared-stacks';

export interface TestDynamoDb {
  readonly endpoint: string;
  readonly doc: DynamoDBDocumentClient;
  /** Its data directory, for a file's own DynamoDB Local; the shared one's is not this file's to read. */
  readonly dataPath?: string;
  /** A new, empty table with the service's schema. */
  freshTable(): Promise<string>;
  /** Stops DynamoDB Local and starts it again on the same port and data directory. */
  restart(): Promise<void>;
  /** Stops it and removes its data. */
  stop(): Promise<void>;
}

let tables = 0;

export const startTestDynamoDb = async (): Promise<TestDynamoDb> => {
  const path = await mkdtemp(join(tmpdir(), 'dynamodb-local-'));
  let db: LocalDynamoDb = await startLocalDynamoDb({ path });
  const { port } = db;
  const doc = createDocumentClient(db.endpoint);
  return {
    endpoint: db.endpoint,
    doc,
    dataPath: path,
    async freshTable() {
      tables += 1;
      const name = `test-${process.pid}-${tables}`;
      await ensureTable(doc, name);
      return name;
    },
    async restart() {
      await db.stop();
      db = await startLocalDynamoDb({ path, port });
    },
    async stop() {
      doc.destroy();
      await db.stop();
      await rm(path, { recursive: true, force: true });
    },
  };
};

/**
 * The shared DynamoDB Local at `endpoint`: the tables this file made are deleted when it is done with
 * it; it cannot be restarted or stopped from here.
 */
const sharedTestDynamoDb = (endpoint: string): TestDynamoDb => {
  const doc = createDocumentClient(endpoint);
  const made: string[] = [];
  const notYours = async (): Promise<never> => {
    throw new Error('the shared DynamoDB Local serves other test files: useTestDynamoDb({ own: true })');
  };
  return {
    endpoint,
    doc,
    async freshTable() {
      tables += 1;
      const name = `test-${process.pid}-${tables}`;
      await ensureTable(doc, name);
      made.push(name);
      return name;
    },
    restart: notYours,
    async stop() {
      await Promise.all(made.map((name) => doc.send(new DeleteTableCommand({ TableName: name }))));
      doc.destroy();
    },
  };
};

/**
 * DynamoDB Local for the calling test file, from before its tests to after them: the run's shared one,
 * or with `own` (for a file that restarts it) one started for the file alone.
 */
export const useTestDynamoDb = ({ own = false }: { own?: boolean } = {}): TestDynamoDb => {
  let started: TestDynamoDb | undefined;
  beforeAll(async () => {
    const host = sharedStacksHost();
    started =
      own || host === undefined
        ? await startTestDynamoDb()
        : sharedTestDynamoDb(
            (await askSharedStacksHost<{ endpoint: string }>(host, '/dynamodb', {})).endpoint,
          );
  }, 120_000);
  afterAll(async () => {
    await started?.stop();
  });
  const current = (): TestDynamoDb => {
    if (!started) throw new Error('DynamoDB Local is used before the test file started it');
    return started;
  };
  return {
    get endpoint() {
      return current().endpoint;
    },
    get doc() {
      return current().doc;
    },
    get dataPath() {
      return current().dataPath;
    },
    freshTable: () => current().freshTable(),
    restart: () => current().restart(),
    stop: () => current().stop(),
  };
};
