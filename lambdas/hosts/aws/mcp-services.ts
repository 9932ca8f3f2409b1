// host -> the composition root of the deployed MCP server (one function per API address): the identity
// provider it trusts (its issuer and JWKS, and its grants in the identity table), the identity table's
// directory, and the ports of both environments, since every tool may act in either. Configuration is
// read once from the environment and validated; clients are built once per instance.
import { SFNClient } from '@aws-sdk/client-sfn';
import * as z from 'zod/mini';
import { createS3Client } from '../../adapters/blobs/s3-client';
import { composeDirectory, composePorts } from '../../adapters/compose';
import { createDocumentClient } from '../../adapters/dynamodb';
import { oidcLiveGrants } from '../../adapters/dynamodb/oidc-live-grants';
import { queuedDeliveries } from '../../adapters/queues/delivery-queue';
import { createSqsClient } from '../../adapters/queues/sqs-client';
import { sqsWorkQueue } from '../../adapters/queues/sqs-work-queue';
import { systemClock } from '../../adapters/system-clock';
import { translateFault, translatingFaults } from '../../adapters/unavailable';
import {
  stepFunctionsDeliveryWaits,
  stepFunctionsWorkflows,
} from '../../adapters/workflows/step-functions-workflows';
import { ENVIRONMENTS, type Environment } from '../../core/model';
import type { Services } from '../../core/services';
import { mcpServerUrl } from '../../core/settings';
import { checkAccessToken, remoteKeys } from '../../mcp/access-tokens';
import { mcpHttpHandler } from '../../mcp/http';
import { builtOnFirstUse } from './built-on-first-use';

const setting = z.string().check(z.minLength(1));

/** One environment's resources, under `SANDBOX_…` or `PRODUCTION_…`. */
const environmentSettings = (prefix: string) => ({
  [`${prefix}_BASE_URL`]: z.url(),
  [`${prefix}_TABLE_NAME`]: setting,
  [`${prefix}_BLOB_BUCKET`]: setting,
  [`${prefix}_PAGES_BASE_URL`]: z.url(),
  [`${prefix}_DELIVERY_QUEUE_URL`]: z.url(),
  [`${prefix}_DELIVERY_STATE_MACHINE_ARN`]: setting,
});

const McpConfig = z.object({
  /** Which API address this function serves (`{base_url}/mcp` of that environment). */
  SERVICE_ENVIRONMENT: z.enum(ENVIRONMENTS),
  IDENTITY_TABLE_NAME: setting,
  /** The identity provider's issuer identifier; its JWKS is at `{issuer}/jwks`. */
  IDENTITY_ISSUER: z.url(),
  AWS_REGION: setting,
  ...environmentSettings('SANDBOX'),
  ...environmentSettings('PRODUCTION'),
});

const build = async () => {
  const config = McpConfig.parse(process.env) as Record<string, string>;
  const read = (environment: Environment, name: string): string => {
    const value = config[`${environment.toUpperCase()}_${name}`];
    if (value === undefined) throw new Error(`${environment.toUpperCase()}_${name} is not set`);
    return value;
  };
  const region = config.AWS_REGION as string;
  const dynamo = createDocumentClient();
  const s3 = createS3Client({ region });
  const stepFunctions = new SFNClient({});
  const sqs = createSqsClient({ region });
  const baseUrls = { sandbox: read('sandbox', 'BASE_URL'), production: read('production', 'BASE_URL') };
  const services = async (environment: Environment): Promise<[Environment, Services]> => {
    const ports = composePorts({
      environment,
      dynamo,
      tableName: read(environment, 'TABLE_NAME'),
      s3,
      bucket: read(environment, 'BLOB_BUCKET'),
      allowLoopbackWebhooks: false,
      // Request history records /v1 calls only, never the MCP server's.
      requestHistory: 'off',
      // No tool issues or checks a /v1 access token: the key is never used here.
      tokenSigner: async () => {
        throw new Error('the MCP server issues no /v1 access token');
      },
      tokenPublicKey: async () => {
        throw new Error('the MCP server checks no /v1 access token');
      },
      answersKey: async () => {
        throw new Error('the MCP server never seals or opens form answers');
      },
      // No tool starts a run.
      workflows: stepFunctionsWorkflows(stepFunctions, {}),
      // A test event and a redelivery hand their message on, as the portal's do.
      deliveryQueue: (clock) =>
        queuedDeliveries({
          queue: sqsWorkQueue(sqs, read(environment, 'DELIVERY_QUEUE_URL')),
          waits: stepFunctionsDeliveryWaits(stepFunctions, read(environment, 'DELIVERY_STATE_MACHINE_ARN')),
          clock,
          delayScale: 1,
        }),
    });
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
  const environments = Object.fromEntries(await Promise.all(ENVIRONMENTS.map(services))) as Record<
    Environment,
    Services
  >;
  const served = config.SERVICE_ENVIRONMENT as Environment;
  const issuer = (config.IDENTITY_ISSUER as string).replace(/\/+$/, '');
  const resource = mcpServerUrl(baseUrls[served]);
  const identityTable = config.IDENTITY_TABLE_NAME as string;
  const grants = translatingFaults(oidcLiveGrants(dynamo, identityTable, systemClock()));
  const tokens = { issuer, resource, keys: remoteKeys(`${issuer}/jwks`) };
  return {
    origin: new URL(baseUrls[served]).origin,
    handle: mcpHttpHandler(
      { resource, issuer, resourceName: `Contract service MCP server (${served})` },
      (token) => checkAccessToken(tokens, grants, token),
      { directory: composeDirectory(dynamo, identityTable), environments },
    ),
  };
};

/** The MCP server's HTTP face and its public origin, built on first use (Secrets Manager down: a 503). */
export const awsMcpServer = builtOnFirstUse(() =>
  build().catch((error: unknown) => {
    throw translateFault(error);
  }),
);
