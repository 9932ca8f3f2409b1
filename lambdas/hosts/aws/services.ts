// host -> the composition root of a deployed function or the upload ingest service: configuration read
// once from the environment and validated, AWS clients built once per instance. The wired ports (the blob
// store over S3, the workflows over Step Functions, PDFs, the analyser, the sender, token keys, the form
// answers' key, the delivery queue) are built only where a host's entry wires them (functions/,
// lambda.ts), as its code's types demand: a function that never reads a blob carries no S3 client. The request history is written when the host flushes it (a Lambda, before it returns), or on a timer (the
// upload ingest service, which runs on).
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SFNClient } from '@aws-sdk/client-sfn';
import * as z from 'zod/mini';
import { decodeAnswerKey } from '../../adapters/answer-vault';
import { createS3Client } from '../../adapters/blobs/s3-client';
import {
  answerVaultOver,
  blobStoreOver,
  composeCommonPorts,
  deliveryQueueOver,
  workflowsOver,
} from '../../adapters/compose';
import { createDocumentClient } from '../../adapters/dynamodb';
import { type DeliveryWaits, queuedDeliveries } from '../../adapters/queues/delivery-queue';
import { createSqsClient } from '../../adapters/queues/sqs-client';
import { sqsWorkQueue } from '../../adapters/queues/sqs-work-queue';
import { translateFault } from '../../adapters/unavailable';
import {
  stepFunctionsDeliveryWaits,
  stepFunctionsWorkflows,
} from '../../adapters/workflows/step-functions-workflows';
import { ENVIRONMENTS } from '../../core/model';
import type {
  AnswerVault,
  CommonPorts,
  DeliveryQueue,
  Ports,
  WiredPortName,
  Workflows,
} from '../../core/ports';
import type { RecorderOptions } from '../../core/request-history/recorder';
import type { Services } from '../../core/services';
import { builtOnFirstUse } from './built-on-first-use';

export const AwsConfig = z.object({
  SERVICE_ENVIRONMENT: z.enum(ENVIRONMENTS),
  TABLE_NAME: z.string().check(z.minLength(1)),
  BLOB_BUCKET: z.string().check(z.minLength(1)),
  /**
   * The secret holding the form answers' key (the base64 of 32 bytes). Only the frame API functions seal
   * or open answers, so it is read on first use there and may be absent elsewhere.
   */
  ANSWERS_KEY_SECRET_ARN: z.optional(z.string().check(z.minLength(1))),
  SANDBOX_BASE_URL: z.url(),
  PRODUCTION_BASE_URL: z.url(),
  RATE_LIMITS: z._default(z.enum(['on', 'off']), 'on'),
  PAGES_BASE_URL: z.url(),
  CONTRACT_STATE_MACHINE_ARN: z.optional(z.string().check(z.minLength(1))),
  REVIEW_STATE_MACHINE_ARN: z.optional(z.string().check(z.minLength(1))),
  /** The wait of webhook deliveries past the delivery queue's 15 minutes. */
  DELIVERY_STATE_MACHINE_ARN: z.optional(z.string().check(z.minLength(1))),
  DELIVERY_QUEUE_URL: z.optional(z.url()),
  ACCEPTANCE_STATE_MACHINE_ARN: z.optional(z.string().check(z.minLength(1))),
  AWS_REGION: z.string().check(z.minLength(1)),
});

/** A deployed host's settings, as read from its environment (the operator tool builds them from a stage's outputs). */
export type AwsConfig = z.infer<typeof AwsConfig>;

/** The waits of a function that hands on only what is due (the wait's own task). */
const startingNoWaits: DeliveryWaits = {
  start: async () => {
    throw new Error('this function is not given DELIVERY_STATE_MACHINE_ARN: it starts no delivery wait');
  },
};

/** What a deployed root's wired ports are built from: its settings and its common ports. */
export interface AwsHost {
  config: AwsConfig;
  common: CommonPorts;
}

/**
 * `build` run once per host, not per process: the operator tool composes a host for each stage it
 * reaches, in one process. Pure, so a bundle whose code never calls the result drops it and its client.
 */
const onePerHost = <T>(build: (host: AwsHost) => T): ((host: AwsHost) => T) => {
  const built = new WeakMap<AwsHost, T>();
  return (host) => {
    if (!built.has(host)) built.set(host, build(host));
    return built.get(host) as T;
  };
};

/** The host's one Step Functions client, built by the first wired port that starts or ends a wait. */
const stepFunctions = /* @__PURE__ */ onePerHost(() => new SFNClient({}));

/**
 * The blob store over the host's bucket (`BLOB_BUCKET`), one per host: the PDF ports read through the
 * same store the code's own `blobs` port writes.
 */
export const awsBlobs = /* @__PURE__ */ onePerHost(({ config }) =>
  blobStoreOver(createS3Client({ region: config.AWS_REGION }), config.BLOB_BUCKET),
);

/** The workflows over the host's state machines (those it is given the ARNs of). */
export const awsWorkflows = (host: AwsHost): Workflows =>
  workflowsOver(
    stepFunctionsWorkflows(stepFunctions(host), {
      contract: host.config.CONTRACT_STATE_MACHINE_ARN,
      review: host.config.REVIEW_STATE_MACHINE_ARN,
      acceptance: host.config.ACCEPTANCE_STATE_MACHINE_ARN,
    }),
  );

/**
 * How a deployed root builds each wired port its code names (`P`), and no other: a port its code calls
 * that its entry does not wire fails to compile, and so does one wired that nothing calls. The PDF ports,
 * the analyser, the sender and the token keys are wired only where called, so no other bundle carries
 * pdf.js, the analysis, the address checks or a KMS client.
 */
export type AwsWiring<P> = { [K in keyof P & WiredPortName]: (host: AwsHost) => Ports[K] };

/** The wiring of a root's entry: none for code that calls no wired port. */
export type AwsWiringArg<P> = [keyof P & WiredPortName] extends [never]
  ? [wiring?: AwsWiring<P>]
  : [wiring: AwsWiring<P>];

/** The vault of the form's answers, its key read from `ANSWERS_KEY_SECRET_ARN` on first use (the frame API's functions). */
export const awsAnswerVault = ({ config }: AwsHost): AnswerVault => {
  const secrets = new SecretsManagerClient({});
  return answerVaultOver(async () => {
    if (!config.ANSWERS_KEY_SECRET_ARN)
      throw new Error('ANSWERS_KEY_SECRET_ARN is not set: this function cannot seal or open form answers');
    const answers = await secrets.send(
      new GetSecretValueCommand({ SecretId: config.ANSWERS_KEY_SECRET_ARN }),
    );
    if (!answers.SecretString) throw new Error('the answers key secret has no value');
    return decodeAnswerKey(answers.SecretString);
  });
};

/**
 * The delivery queue of a function that hands webhook deliveries on (`DELIVERY_QUEUE_URL`, and the
 * wait's `DELIVERY_STATE_MACHINE_ARN` for all but the wait's own task: lib/wiring.ts `handsOnDeliveries`).
 */
export const awsDeliveryQueue = (host: AwsHost): DeliveryQueue => {
  const { config, common } = host;
  const { DELIVERY_QUEUE_URL: queueUrl, DELIVERY_STATE_MACHINE_ARN: waitArn } = config;
  if (queueUrl === undefined)
    throw new Error('DELIVERY_QUEUE_URL is not set: this function cannot hand deliveries on');
  return deliveryQueueOver(
    queuedDeliveries({
      queue: sqsWorkQueue(createSqsClient({ region: config.AWS_REGION }), queueUrl),
      waits:
        waitArn === undefined ? startingNoWaits : stepFunctionsDeliveryWaits(stepFunctions(host), waitArn),
      clock: common.clock,
      delayScale: 1,
    }),
  );
};

/**
 * The services of one environment over its AWS resources, with the SDK's default region, credentials
 * and endpoints: a function's, and the operator tool's against a deployed stage (bin/ops/deployed-stage.ts).
 */
export const composeAwsServices = <P>(
  config: AwsConfig,
  wiring: AwsWiring<P>,
  requestHistory: RecorderOptions = {},
): Services<P> => {
  const common = composeCommonPorts({
    environment: config.SERVICE_ENVIRONMENT,
    dynamo: createDocumentClient(),
    tableName: config.TABLE_NAME,
    requestHistory,
  });
  const host: AwsHost = { config, common };
  const builders: Array<[string, (host: AwsHost) => unknown]> = Object.entries(wiring);
  const wired = Object.fromEntries(builders.map(([name, build]) => [name, build(host)]));
  // `AwsWiring<P>` holds a builder for every wired port `P` names, and `common` every other port.
  const ports = { ...common, ...wired } as unknown as P;
  return {
    ports,
    settings: {
      environment: config.SERVICE_ENVIRONMENT,
      baseUrls: { sandbox: config.SANDBOX_BASE_URL, production: config.PRODUCTION_BASE_URL },
      pagesBaseUrl: config.PAGES_BASE_URL.replace(/\/+$/, ''),
      allowLoopbackWebhooks: false,
      delayScale: 1,
      rateLimits: config.RATE_LIMITS === 'on',
    },
  };
};

const build = async <P>(wiring: AwsWiring<P>, requestHistory: RecorderOptions): Promise<Services<P>> =>
  composeAwsServices(AwsConfig.parse(process.env), wiring, requestHistory);

let services: (() => Promise<Services<unknown>>) | undefined;

/**
 * The services of this instance, built on first use (a function always asks with the same wiring). By
 * default the request history is written only when flushed: a Lambda flushes before it returns.
 */
export const awsServices = <P>(
  wiring: AwsWiring<P>,
  requestHistory: RecorderOptions = {},
): Promise<Services<P>> => {
  services ??= builtOnFirstUse<Services<unknown>>(() =>
    // Secrets Manager down: a 503 (or a retried task), like any dependency's fault.
    build(wiring, requestHistory).catch((error: unknown) => {
      throw translateFault(error);
    }),
  );
  return services() as Promise<Services<P>>;
};
