import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DescribeTableCommand, DescribeTimeToLiveCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbApiKeyStore } from '../../lambdas/adapters/dynamodb/api-key-store';
import { ensureTable } from '../../local/emulators/dynamodb-local';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { apiKey, scopeIn } from '../support/fixtures';

const db = useTestDynamoDb({ own: true }); // restarted below: not the run's shared one

describe('ensureTable', () => {
  it('creates the table with both newest-first indexes and TTL on expires_at', async () => {
    const tableName = await db.freshTable();

    const { Table } = await db.doc.send(new DescribeTableCommand({ TableName: tableName }));
    const ttl = await db.doc.send(new DescribeTimeToLiveCommand({ TableName: tableName }));

    expect(Table?.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(Table?.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
    const indexes = (Table?.GlobalSecondaryIndexes ?? []).map((index) => ({
      name: index.IndexName,
      keys: index.KeySchema?.map((k) => k.AttributeName),
      projection: index.Projection?.ProjectionType,
    }));
    expect(indexes).toEqual(
      expect.arrayContaining([
        { name: 'gsi1', keys: ['gsi1pk', 'gsi1sk'], projection: 'ALL' },
        { name: 'gsi2', keys: ['gsi2pk', 'gsi2sk'], projection: 'ALL' },
      ]),
    );
    expect(ttl.TimeToLiveDescription?.AttributeName).toBe('expires_at');
    expect(ttl.TimeToLiveDescription?.TimeToLiveStatus).toBe('ENABLED');
  });

  it('is safe to call again on an existing table, also from a low-level client', async () => {
    const tableName = await db.freshTable();
    const raw = new DynamoDBClient({
      endpoint: db.endpoint,
      region: 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });

    await ensureTable(raw, tableName);
    await Promise.all([ensureTable(db.doc, tableName), ensureTable(db.doc, tableName)]);

    const { Table } = await raw.send(new DescribeTableCommand({ TableName: tableName }));
    expect(Table?.TableStatus).toBe('ACTIVE');
    raw.destroy();
  });

  it('creates a missing table from several processes at once', async () => {
    const tableName = `concurrent-${process.pid}`;

    await Promise.all([ensureTable(db.doc, tableName), ensureTable(db.doc, tableName)]);

    const { Table } = await db.doc.send(new DescribeTableCommand({ TableName: tableName }));
    expect(Table?.TableStatus).toBe('ACTIVE');
  });
});

describe('startLocalDynamoDb', () => {
  it('keeps the data on disk across a restart on the same path', async () => {
    const tableName = await db.freshTable();
    const store = new DynamoDbApiKeyStore(db.doc, tableName);
    const key = apiKey(scopeIn('sandbox'));
    await store.putApiKey(key);

    await db.restart();

    await expect(store.getApiKey(key.id)).resolves.toEqual(key);
  });

  it("keeps its file in SQLite's write-ahead-log journal, which syncs once a commit", async () => {
    if (db.dataPath === undefined) throw new Error('this file has a DynamoDB Local of its own');
    // A reader beside DynamoDB Local's own connections, as the log allows.
    const file = new DatabaseSync(join(db.dataPath, 'shared-local-instance.db'), { readOnly: true });
    const { journal_mode } = file.prepare('PRAGMA journal_mode').get() as { journal_mode: string };
    file.close();

    expect(journal_mode).toBe('wal');
  });

  it('listens on 127.0.0.1 only, as the S3 twin does, not on every interface', async () => {
    const port = Number(new URL(db.endpoint).port);

    const listening = await listeningAddresses(port);

    expect(listening.length).toBeGreaterThan(0);
    for (const address of listening) expect(['127.0.0.1', '::ffff:127.0.0.1']).toContain(address);
  });
});

/** The local addresses of the sockets listening on `port`, read from Linux's /proc/net/tcp and tcp6. */
const listeningAddresses = async (port: number): Promise<string[]> => {
  const LISTEN = '0A';
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const addresses: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const rows = (await readFile(table, 'utf8')).split('\n').slice(1);
    for (const row of rows) {
      const [, local, , state] = row.trim().split(/\s+/);
      if (!local || state !== LISTEN || !local.endsWith(`:${hexPort}`)) continue;
      addresses.push(decodeAddress(local.slice(0, local.indexOf(':'))));
    }
  }
  return addresses;
};

/** /proc/net's little-endian hex address: 8 digits for IPv4, 32 for IPv6 (words of 4 bytes each). */
const decodeAddress = (hex: string): string => {
  const bytes = (word: string) => (word.match(/../g) ?? []).map((b) => Number.parseInt(b, 16)).reverse();
  if (hex.length === 8) return bytes(hex).join('.');
  const all = (hex.match(/.{8}/g) ?? []).flatMap(bytes);
  if (all.slice(0, 10).every((b) => b === 0) && all[10] === 255 && all[11] === 255)
    return `::ffff:${all.slice(12).join('.')}`;
  return all.every((b) => b === 0) ? '::' : all.map((b) => b.toString(16)).join(':');
};
