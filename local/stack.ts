// local -> the whole service on one machine (`npm start`): DynamoDB Local and the S3 twin under
// DATA_DIR, each environment's API on its port (every request going to the deployed handler code, and
// `/onboarding.js`), each environment's onboarding frame (its files and the frame API), each
// environment's hosted pages, the developer portal, the identity provider, the back office, and the MCP server on each
// API address.

import { createServer, type RequestListener, type Server } from 'node:http';
import path from 'node:path';
import { buildOnboardingAssets } from '../frontend/onboarding/build';
import { frameFiles, loaderFile } from '../frontend/onboarding/served-files';
import { createS3Client, ensureBucket } from '../lambdas/adapters/blobs/s3-client';
import { createDocumentClient } from '../lambdas/adapters/dynamodb';
import { backfillOrganisationList } from '../lambdas/adapters/dynamodb/organisation-store';
import { LOCAL_IDENTITY_TABLE, localTableName } from '../lambdas/adapters/dynamodb/table-schema';
import { queuedDeliveries } from '../lambdas/adapters/queues/delivery-queue';
import { API_ENDPOINTS } from '../lambdas/api/endpoints';
import { ENVIRONMENTS, type Environment } from '../lambdas/core/model';
import { apiListener } from '../lambdas/hosts/api-host';
import { createJsonServer } from '../lambdas/hosts/http-protocol-errors';
import { localBackOffice } from './back-office';
import { type LocalConfig, localUrl, PORT_OFFSETS } from './config';
import { ensureTable, startLocalDynamoDb } from './emulators/dynamodb-local';
import { startLocalS3 } from './emulators/s3-server';
import type { LocalStepFunctions } from './emulators/step-functions';
import { startLocalEventFlow, startLocalQueues } from './event-flow';
import { frameListener, withLoader } from './frame-host';
import { localIdentityProvider } from './identity-provider';
import { localMcpListener } from './mcp';
import { withMcp } from './mcp-host';
import { pagesListener } from './pages-host';
import { localPortal } from './portal';
import { localBucket, localFrameUrls, localServices, localWaits } from './wiring';
import { localWorkflowRunner } from './workflow-runner';

export interface LocalStack {
  addresses: Record<string, string>;
  stop(): Promise<void>;
  /** What a stop under way is waiting for: said when a stop takes too long. */
  stoppingStage(): string;
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
  let stopQueues = async () => {};
  const stopStores = () => Promise.all([blobStore.stop(), dynamoDb.stop(), stopQueues()]);
  try {
    const dynamo = createDocumentClient(dynamoDb.endpoint);
    for (const environment of ENVIRONMENTS) await ensureTable(dynamo, localTableName(environment));
    // People and the identity provider's state, shared by both environments.
    await ensureTable(dynamo, LOCAL_IDENTITY_TABLE);
    // A data directory from before the organisations' list index: its organisations join the list.
    await backfillOrganisationList(dynamo, LOCAL_IDENTITY_TABLE);
    const s3 = createS3Client({ region: 'us-east-1', endpoint: blobStore.endpoint });
    for (const environment of ENVIRONMENTS) await ensureBucket(s3, localBucket(environment));

    // The runner's tasks use the services and the services start runs on the runner: bound late. The
    // queues come first: the services send to them.
    const queues = await startLocalQueues();
    stopQueues = queues.stop;
    let runner: LocalStepFunctions | undefined;
    const services = await localServices(config, (environment) => ({
      workflows: { start: async (run) => runner?.workflows(environment).start(run) },
      deliveryQueue: (clock) =>
        queuedDeliveries({
          queue: queues.delivery[environment],
          waits: { start: async (delivery) => runner?.deliveryWaits(environment).start(delivery) },
          clock,
          delayScale: config.delayScale,
        }),
    }));
    const waits = { production: localWaits(dynamo, 'production'), sandbox: localWaits(dynamo, 'sandbox') };
    runner = await localWorkflowRunner(services, waits, queues.render, config.delayScale);

    // The sign-up form's frame and loader, built once before anything listens.
    const onboarding = await buildOnboardingAssets();
    const frameUrls = localFrameUrls(config);
    const files = frameFiles(onboarding);
    const api = (environment: Environment): RequestListener =>
      withMcp(
        localMcpListener(config, dynamo, services, environment),
        withLoader(
          loaderFile(onboarding, frameUrls[environment]),
          apiListener(services[environment], API_ENDPOINTS),
        ),
      );
    // The API and frame addresses answer HTTP faults in the API's JSON shape; the pages, in the parser's.
    const hosts: Array<[string, number, RequestListener, 'json'?]> = [
      ['production API', PORT_OFFSETS.productionApi, api('production'), 'json'],
      ['sandbox API', PORT_OFFSETS.sandboxApi, api('sandbox'), 'json'],
      ['production frame', PORT_OFFSETS.productionFrame, frameListener(services.production, files), 'json'],
      ['sandbox frame', PORT_OFFSETS.sandboxFrame, frameListener(services.sandbox, files), 'json'],
      ['production pages', PORT_OFFSETS.productionPages, pagesListener(services.production.ports.blobs)],
      ['sandbox pages', PORT_OFFSETS.sandboxPages, pagesListener(services.sandbox.ports.blobs)],
      ['portal', PORT_OFFSETS.portal, await localPortal(config, dynamo, services)],
      ['identity provider', PORT_OFFSETS.identityProvider, await localIdentityProvider(config, dynamo)],
      ['back office', PORT_OFFSETS.backOffice, await localBackOffice(config, dynamo, services)],
    ];
    const servers: Server[] = [];
    const addresses: Record<string, string> = {};
    for (const [name, offset, listener, errors] of hosts) {
      const options = { requestTimeout: 15 * 60_000 };
      const server =
        errors === 'json' ? createJsonServer(options, listener) : createServer(options, listener);
      await listen(server, config.portBase + offset);
      servers.push(server);
      addresses[name] = localUrl(config, offset);
    }
    // Runs a stop or a crash interrupted, then those the operator tool records.
    await runner.redrive();
    runner.startPolling();
    const workflows = runner;
    const events = startLocalEventFlow(services, queues);
    let stage = 'not stopping';
    const step = async (name: string, work: () => Promise<unknown>) => {
      stage = name;
      await work();
    };
    return {
      addresses,
      stop: async () => {
        await step('closing the HTTP servers (requests under way are answered first)', () =>
          Promise.all(servers.map(close)),
        );
        // The request history held for the last calls is written before the storage stops.
        await step('writing the request history held', () =>
          Promise.all(ENVIRONMENTS.map((e) => services[e].ports.apiRequestRecorder.flush())),
        );
        await step('stopping the event flow', () => events.stop());
        await step('stopping the workflow runner (tasks under way finish first)', () => workflows.stop());
        await step('stopping DynamoDB Local, the S3 twin and the queues', stopStores);
        stage = 'stopped';
      },
      stoppingStage: () => stage,
    };
  } catch (error) {
    await stopStores();
    throw error;
  }
};
