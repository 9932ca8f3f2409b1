// test support -> an environment's services over one DynamoDB Local table and nothing else: the blob
// store and Step Functions at an address nothing answers, no access-token keys, a fixed answers key and
// no request history, for tests of a worker whose only store is the table. A test names the workflows
// and the delivery queue it watches.

import { SFNClient } from '@aws-sdk/client-sfn';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createS3Client } from '../../lambdas/adapters/blobs/s3-client';
import { composePorts, type PortsWiring } from '../../lambdas/adapters/compose';
import { stepFunctionsWorkflows } from '../../lambdas/adapters/workflows/step-functions-workflows';
import type { Environment } from '../../lambdas/core/model';
import type { Services } from '../../lambdas/core/services';
import { noTokenKeys } from '../../lambdas/hosts/aws/token-keys';

const UNREACHABLE = 'http://127.0.0.1:9';

export const tableOnlyServices = (
  doc: DynamoDBDocumentClient,
  tableName: string,
  environment: Environment,
  { workflows, deliveryQueue }: Partial<Pick<PortsWiring, 'workflows' | 'deliveryQueue'>>,
): Services => ({
  ports: composePorts({
    environment,
    dynamo: doc,
    tableName,
    s3: createS3Client({ region: 'us-east-1', endpoint: UNREACHABLE }),
    bucket: 'unused',
    ...noTokenKeys(),
    answersKey: async () => new Uint8Array(32),
    workflows:
      workflows ?? stepFunctionsWorkflows(new SFNClient({ region: 'us-east-1', endpoint: UNREACHABLE }), {}),
    deliveryQueue:
      deliveryQueue ??
      (() => ({
        schedule: async () => {
          throw new Error('this test hands no delivery on');
        },
      })),
    requestHistory: 'off',
  }),
  settings: {
    environment,
    baseUrls: { sandbox: 'https://sandbox.example.com', production: 'https://example.com' },
    pagesBaseUrl: 'https://pages.example.com',
    allowLoopbackWebhooks: false,
    delayScale: 1,
    rateLimits: false,
  },
});
