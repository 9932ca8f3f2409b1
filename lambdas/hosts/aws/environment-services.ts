// host -> both environments' services in one deployed function (the MCP server's and the portal's, whose
// tools and pages act in either): each environment's table, blob bucket name, pages address and delivery
// hand-on, read from `SANDBOX_…` and `PRODUCTION_…` settings. No /v1 token, no form answers, no run:
// its ports are the common ones and the delivery queue.
import { SFNClient } from '@aws-sdk/client-sfn';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { composeCommonPorts, deliveryQueueOver } from '../../adapters/compose';
import { queuedDeliveries } from '../../adapters/queues/delivery-queue';
import { createSqsClient } from '../../adapters/queues/sqs-client';
import { sqsWorkQueue } from '../../adapters/queues/sqs-work-queue';
import { stepFunctionsDeliveryWaits } from '../../adapters/workflows/step-functions-workflows';
import { ENVIRONMENTS, type Environment } from '../../core/model';
import type { CommonPorts, Ports } from '../../core/ports';
import type { Services } from '../../core/services';

export const setting = z.string().check(z.minLength(1));

/** One environment's resources, under `SANDBOX_…` or `PRODUCTION_…`. */
const environmentSettings = (prefix: string) => ({
  [`${prefix}_BASE_URL`]: z.url(),
  [`${prefix}_TABLE_NAME`]: setting,
  [`${prefix}_BLOB_BUCKET`]: setting,
  [`${prefix}_PAGES_BASE_URL`]: z.url(),
  [`${prefix}_DELIVERY_QUEUE_URL`]: z.url(),
  [`${prefix}_DELIVERY_STATE_MACHINE_ARN`]: setting,
});

/** Both environments' settings, to spread into a function's settings schema. */
export const BOTH_ENVIRONMENTS_SETTINGS = {
  ...environmentSettings('SANDBOX'),
  ...environmentSettings('PRODUCTION'),
};

/** `{ENVIRONMENT}_{name}` of the parsed settings. */
export const settingOf = (
  config: Readonly<Record<string, string>>,
  environment: Environment,
  name: string,
) => {
  const value = config[`${environment.toUpperCase()}_${name}`];
  if (value === undefined) throw new Error(`${environment.toUpperCase()}_${name} is not set`);
  return value;
};

/** The ports of the MCP server's and the portal's environments: the common ones, and the delivery queue. */
export type BothEnvironmentsPorts = CommonPorts & Pick<Ports, 'deliveryQueue'>;

/** Each environment's services over `dynamo`, from the parsed settings. */
export const bothEnvironments = async (
  config: Readonly<Record<string, string>>,
  dynamo: DynamoDBDocumentClient,
  region: string,
): Promise<Record<Environment, Services<BothEnvironmentsPorts>>> => {
  const read = (environment: Environment, name: string) => settingOf(config, environment, name);
  const stepFunctions = new SFNClient({});
  const sqs = createSqsClient({ region });
  const baseUrls = { sandbox: read('sandbox', 'BASE_URL'), production: read('production', 'BASE_URL') };
  const services = async (
    environment: Environment,
  ): Promise<[Environment, Services<BothEnvironmentsPorts>]> => {
    const common = composeCommonPorts({
      environment,
      dynamo,
      tableName: read(environment, 'TABLE_NAME'),
      // Request history records /v1 calls only, never these callers'.
      requestHistory: 'off',
    });
    const ports: BothEnvironmentsPorts = {
      ...common,
      // A test event and a redelivery hand their message on.
      deliveryQueue: deliveryQueueOver(
        queuedDeliveries({
          queue: sqsWorkQueue(sqs, read(environment, 'DELIVERY_QUEUE_URL')),
          waits: stepFunctionsDeliveryWaits(stepFunctions, read(environment, 'DELIVERY_STATE_MACHINE_ARN')),
          clock: common.clock,
          delayScale: 1,
        }),
      ),
    };
    return [
      environment,
      {
        ports,
        settings: {
          environment,
          baseUrls,
          pagesBaseUrl: read(environment, 'PAGES_BASE_URL').replace(/\/+$/, ''),
          allowLoopbackWebhooks: false,
          delayScale: 1,
          rateLimits: true,
        },
      },
    ];
  };
  return Object.fromEntries(await Promise.all(ENVIRONMENTS.map(services))) as Record<
    Environment,
    Services<BothEnvironmentsPorts>
  >;
};
