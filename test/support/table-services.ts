// test support -> an environment's services over one DynamoDB Local table and nothing else: the blob
// store and Step Functions at an address nothing answers, wired ports that fail if called (these tests
// run workers that call none) and no request history, for tests of a worker whose only store is the
// table. A test names the workflows and the delivery queue it watches.

import { SFNClient } from '@aws-sdk/client-sfn';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createS3Client } from '../../lambdas/adapters/blobs/s3-client';
import { composeCommonPorts, deliveryQueueOver } from '../../lambdas/adapters/compose';
import { stepFunctionsWorkflows } from '../../lambdas/adapters/workflows/step-functions-workflows';
import type { Environment } from '../../lambdas/core/model';
import type { Clock, DeliveryQueue, Ports, WiredPortName, Workflows } from '../../lambdas/core/ports';
import type { Services } from '../../lambdas/core/services';

const UNREACHABLE = 'http://127.0.0.1:9';

/** The wired ports, each failing if a test's code calls it (a test gives the delivery queue it watches). */
const notInThisTest = (): Pick<Ports, WiredPortName> => {
  const fails = (port: string) => async () => {
    throw new Error(`this test gives no ${port}`);
  };
  return {
    tokenIssuer: { issue: fails('token issuer') },
    tokenVerifier: { verify: fails('token verifier') },
    answerVault: { seal: fails('answer vault'), open: fails('answer vault') },
    pdfs: { inspect: fails('PDF inspector') },
    renderer: { render: fails('renderer') },
    analyser: { analyse: fails('analyser') },
    webhookSender: { send: fails('webhook sender') },
    deliveryQueue: { schedule: fails('delivery queue') },
  };
};

export const tableOnlyServices = (
  doc: DynamoDBDocumentClient,
  tableName: string,
  environment: Environment,
  { workflows, deliveryQueue }: { workflows?: Workflows; deliveryQueue?: (clock: Clock) => DeliveryQueue },
): Services => {
  const common = composeCommonPorts({
    environment,
    dynamo: doc,
    tableName,
    s3: createS3Client({ region: 'us-east-1', endpoint: UNREACHABLE }),
    bucket: 'unused',
    workflows:
      workflows ?? stepFunctionsWorkflows(new SFNClient({ region: 'us-east-1', endpoint: UNREACHABLE }), {}),
    requestHistory: 'off',
  });
  const ports: Ports = {
    ...common,
    ...notInThisTest(),
    ...(deliveryQueue && { deliveryQueue: deliveryQueueOver(deliveryQueue(common.clock)) }),
  };
  return {
    ports,
    settings: {
      environment,
      baseUrls: { sandbox: 'https://sandbox.example.com', production: 'https://example.com' },
      pagesBaseUrl: 'https://pages.example.com',
      allowLoopbackWebhooks: false,
      delayScale: 1,
      rateLimits: false,
    },
  };
};
