// test support -> one DynamoDB Local per test file, on a free port with its data in a temp dir; each
// test takes a fresh table so tests never see each other's items.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb/document-client';
import {
  ensureTable,
  type LocalDynamoDb,
  startLocalDynamoDb,
} from '../../lambdas/adapters/dynamodb/local-dynamodb';

export interface TestDynamoDb {
  readonly endpoint: string;
  readonly doc: DynamoDBDocumentClient;
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

/** Starts one DynamoDB Local for the calling test file (before its tests) and stops it after them. */
export const useTestDynamoDb = (): TestDynamoDb => {
  let started: TestDynamoDb | undefined;
  beforeAll(async () => {
    started = await startTestDynamoDb();
  });
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
    freshTable: () => current().freshTable(),
    restart: () => current().restart(),
    stop: () => current().stop(),
  };
};
