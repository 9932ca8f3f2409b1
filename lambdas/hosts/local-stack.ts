// host -> the whole service on one machine (`npm start`): DynamoDB Local and the S3 twin under
// DATA_DIR, and each environment's API on its port, every request going to the deployed handler code.
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { startLocalS3 } from '../adapters/blobs/local-s3-server';
import { createS3Client, ensureBucket } from '../adapters/blobs/s3-client';
import { createDocumentClient, ensureTable, startLocalDynamoDb } from '../adapters/dynamodb';
import { localTableName } from '../adapters/dynamodb/table-schema';
import { useServicesResolver } from '../api/http/endpoint';
import { ENVIRONMENTS, type Environment } from '../core/model';
import { apiListener } from './api-host';
import { type LocalConfig, localUrl, PORT_OFFSETS } from './local-config';
import { LOCAL_BUCKET, localServices } from './local-wiring';

export interface LocalStack {
  addresses: Record<string, string>;
  stop(): Promise<void>;
}

const listen = (server: Server, port: number): Promise<void> =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });

const close = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });

export const startLocalStack = async (config: LocalConfig): Promise<LocalStack> => {
  const dynamoDb = await startLocalDynamoDb({
    path: path.join(config.dataDir, 'dynamodb'),
    port: config.portBase + PORT_OFFSETS.dynamoDb,
  });
  const blobStore = await startLocalS3(
    path.join(config.dataDir, 'blobs'),
    config.portBase + PORT_OFFSETS.blobStore,
  );
  const stopStores = () => Promise.all([blobStore.stop(), dynamoDb.stop()]);
  try {
    const dynamo = createDocumentClient(dynamoDb.endpoint);
    for (const environment of ENVIRONMENTS) await ensureTable(dynamo, localTableName(environment));
    await ensureBucket(createS3Client({ region: 'us-east-1', endpoint: blobStore.endpoint }), LOCAL_BUCKET);

    const services = await localServices(config);
    useServicesResolver(async (event) => {
      const found = services[event.requestContext.stage as Environment];
      if (!found) throw new Error(`no environment ${event.requestContext.stage}`);
      return found;
    });

    const apis: Array<[Environment, number]> = [
      ['production', PORT_OFFSETS.productionApi],
      ['sandbox', PORT_OFFSETS.sandboxApi],
    ];
    const servers: Server[] = [];
    const addresses: Record<string, string> = {};
    for (const [environment, offset] of apis) {
      const server = createServer(
        { requestTimeout: 15 * 60_000 },
        apiListener(services[environment], environment),
      );
      await listen(server, config.portBase + offset);
      servers.push(server);
      addresses[`${environment} API`] = localUrl(config, offset);
    }
    return {
      addresses,
      stop: async () => {
        await Promise.all(servers.map(close));
        await stopStores();
      },
    };
  } catch (error) {
    await stopStores();
    throw error;
  }
};
