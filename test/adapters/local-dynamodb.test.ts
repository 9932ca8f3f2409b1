import { DescribeTableCommand, DescribeTimeToLiveCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbIdentityStore } from '../../lambdas/adapters/dynamodb/identity-store';
import { ensureTable } from '../../lambdas/adapters/dynamodb/local-dynamodb';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { organisation, TestClock } from '../support/fixtures';

const db = useTestDynamoDb();

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
    const identity = new DynamoDbIdentityStore(db.doc, tableName, new TestClock());
    const org = organisation({ sandboxBudget: 7, sandboxUsed: 2 });
    await identity.putOrganisation(org);

    await db.restart();

    await expect(identity.getOrganisation(org.id)).resolves.toEqual(org);
  });
});
