// test support -> an environment's services over one DynamoDB Local table and nothing else: the blob
// store and Step Functions at an address nothing answers, wired ports that fail if called (these tests
// run workers that call none) and no request history, for tests of a worker whose only store is the
// table. A test names the workflows and the delivery queue it watches.

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { composeCommonPorts, deliveryQueueOver, workflowsOver } from '../../lambdas/adapters/compose';
import type { Environment } from '../../lambdas/core/model';
import type { Clock, DeliveryQueue, Ports, WiredPortName, Workflows } from '../../lambdas/core/ports';
import type { Services } from '../../lambdas/core/services';

/** The wired ports, each failing if a test's code calls it (a test gives the delivery queue it watches). */
const notInThisTest = (): Pick<Ports, WiredPortName> => {
  const fails = (port: string) => async () => {
    throw new Error(`this test gives no ${port}`);
  };
  return {
    blobs: {
      put: fails('blob store'),
      readRange: fails('blob store'),
      delete: fails('blob store'),
      copy: fails('blob store'),
    },
    workflows: {
      start: fails('workflows'),
      completeWait: fails('workflows'),
      failWait: fails('workflows'),
    },
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
  const common = composeCommonPorts({ environment, dynamo: doc, tableName, requestHistory: 'off' });
  const ports: Ports = {
    ...common,
    ...notInThisTest(),
    ...(workflows && { workflows: workflowsOver(workflows) }),
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
