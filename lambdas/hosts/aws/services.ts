// host -> the composition root of a deployed function or the upload ingest service: configuration read
// once from the environment and validated, AWS clients built once per instance. The PDF ports and the
// access-token keys are wired only where a host's entry asks for them (functions/, lambda.ts), so the
// others carry no pdf.js and no KMS client. The request history is written when the host flushes it (a Lambda, before it returns), or on a timer (the
// upload ingest service, which runs on).
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SFNClient } from '@aws-sdk/client-sfn';
import * as z from 'zod/mini';
import { decodeAnswerKey } from '../../adapters/answer-vault';
import { createS3Client } from '../../adapters/blobs/s3-client';
import { composePorts, type PortsWiring } from '../../adapters/compose';
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
import type { DeliveryQueue } from '../../core/ports';
import type { RecorderOptions } from '../../core/request-history/recorder';
import type { Services } from '../../core/services';
import { builtOnFirstUse } from './built-on-first-use';
import { noTokenKeys, type TokenKeys } from './token-keys';

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

/** The delivery queue of a function that hands none on: a call is a fault of its wiring. */
const notHandingOnDeliveries: DeliveryQueue = {
  schedule: async () => {
    throw new Error('this function is not given DELIVERY_QUEUE_URL: it hands no webhook delivery on');
  },
};

/** The waits of a function that hands on only what is due (the wait's own task). */
const startingNoWaits: DeliveryWaits = {
  start: async () => {
    throw new Error('this function is not given DELIVERY_STATE_MACHINE_ARN: it starts no delivery wait');
  },
};

/**
 * What a host's entry wires in beyond the common ports: the PDF ports when it reads PDFs, the token keys
 * when it checks access tokens (the API's functions and the ingest service).
 */
export type HostWiring = PdfWiring & { tokenKeys?: () => TokenKeys };

/**
 * The ports of the heavy or outward work a function's entry wires in: the PDF ports when it reads PDFs,
 * the analyser when it analyses, the webhook sender when it delivers (so that no other bundle carries
 * pdf.js, the analysis or the address checks).
 */
export type PdfWiring = Pick<PortsWiring, 'pdfs' | 'renderer' | 'analyser' | 'webhookSender'>;

/**
 * The services of one environment over its AWS resources, with the SDK's default region, credentials
 * and endpoints: a function's, and the operator tool's against a deployed stage (bin/ops/deployed-stage.ts).
 */
export const composeAwsServices = (
  config: AwsConfig,
  wiring: HostWiring = {},
  requestHistory: RecorderOptions = {},
): Services => {
  const secrets = new SecretsManagerClient({});
  const stepFunctions = new SFNClient({});
  const ports = composePorts({
    environment: config.SERVICE_ENVIRONMENT,
    dynamo: createDocumentClient(),
    tableName: config.TABLE_NAME,
    s3: createS3Client({ region: config.AWS_REGION }),
    bucket: config.BLOB_BUCKET,
    requestHistory,
    ...(wiring.tokenKeys ?? noTokenKeys)(),
    answersKey: async () => {
      if (!config.ANSWERS_KEY_SECRET_ARN)
        throw new Error('ANSWERS_KEY_SECRET_ARN is not set: this function cannot seal or open form answers');
      const answers = await secrets.send(
        new GetSecretValueCommand({ SecretId: config.ANSWERS_KEY_SECRET_ARN }),
      );
      if (!answers.SecretString) throw new Error('the answers key secret has no value');
      return decodeAnswerKey(answers.SecretString);
    },
    workflows: stepFunctionsWorkflows(stepFunctions, {
      contract: config.CONTRACT_STATE_MACHINE_ARN,
      review: config.REVIEW_STATE_MACHINE_ARN,
      acceptance: config.ACCEPTANCE_STATE_MACHINE_ARN,
    }),
    deliveryQueue: (clock) => {
      const { DELIVERY_QUEUE_URL: queueUrl, DELIVERY_STATE_MACHINE_ARN: waitArn } = config;
      // Only the functions that hand deliveries on are given the queue, and the wait (lib/wiring.ts).
      if (queueUrl === undefined) return notHandingOnDeliveries;
      return queuedDeliveries({
        queue: sqsWorkQueue(createSqsClient({ region: config.AWS_REGION }), queueUrl),
        waits: waitArn === undefined ? startingNoWaits : stepFunctionsDeliveryWaits(stepFunctions, waitArn),
        clock,
        delayScale: 1,
      });
    },
    pdfs: wiring.pdfs,
    renderer: wiring.renderer,
    analyser: wiring.analyser,
    webhookSender: wiring.webhookSender,
  });
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

const build = async (wiring: HostWiring, requestHistory: RecorderOptions): Promise<Services> =>
  composeAwsServices(AwsConfig.parse(process.env), wiring, requestHistory);

let services: (() => Promise<Services>) | undefined;

/**
 * The services of this instance, built on first use (a function always asks with the same wiring). By
 * default the request history is written only when flushed: a Lambda flushes before it returns.
 */
export const awsServices = (
  wiring: HostWiring = {},
  requestHistory: RecorderOptions = {},
): Promise<Services> => {
  services ??= builtOnFirstUse(() =>
    // Secrets Manager down: a 503 (or a retried task), like any dependency's fault.
    build(wiring, requestHistory).catch((error: unknown) => {
      throw translateFault(error);
    }),
  );
  return services();
};
