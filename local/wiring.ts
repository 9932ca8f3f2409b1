// local -> the local stack's ports for each environment, against the embedded stores it runs (DynamoDB
// Local and the S3 twin) and key files per environment under DATA_DIR (access-token signing, the
// form's answers). The operator tool wires the same way beside a running stack.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { newAnswerKey } from '../lambdas/adapters/answer-vault';
import { createS3Client } from '../lambdas/adapters/blobs/s3-client';
import {
  answerVaultOver,
  blobStoreOver,
  composeCommonPorts,
  composeDirectory,
  deliveryQueueOver,
  tokenIssuerOver,
  tokenVerifierOver,
  workflowsOver,
} from '../lambdas/adapters/compose';
import { createDocumentClient } from '../lambdas/adapters/dynamodb';
import { LOCAL_IDENTITY_TABLE, localTableName } from '../lambdas/adapters/dynamodb/table-schema';
import { localEs256Signer } from '../lambdas/adapters/es256-access-tokens';
import { lazyPdfInspector, lazyRenderer } from '../lambdas/adapters/pdf/lazy-pdf-ports';
import { webhookSender } from '../lambdas/adapters/webhooks/http-sender';
import { ENVIRONMENTS, type Environment } from '../lambdas/core/model';
import type { Directory } from '../lambdas/core/organisations';
import type { Clock, DeliveryQueue, Ports, RateLimiter, Workflows } from '../lambdas/core/ports';
import type { Services } from '../lambdas/core/services';
import { type LocalConfig, localUrl, PORT_OFFSETS } from './config';
import { LocalWaits } from './emulators/step-functions-waits';
import { eventLoopSaturation } from './event-loop-saturation';
import { threadAnalyser } from './thread-analyser';

/**
 * How soon the local stack writes a request history record once its call is answered (or sooner, when a
 * batch of 25 is full): soon enough that a person sees a call at once, rarely enough to write in batches.
 */
export const LOCAL_HISTORY_FLUSH_MS = 100;

/** One bucket per environment, as deployed (each stage has its own), so one environment's pages and PDFs are never served by the other's hosts. */
export const localBucket = (environment: Environment): string => `service-blobs-${environment}`;

/**
 * A key file under DATA_DIR/keys, made once (mode 0600; whoever loses a race to make it reads the
 * winner's) and read as the text it holds. Deployed, the keys are Secrets Manager secrets.
 */
export const keyText = async (dataDir: string, name: string, make: () => string): Promise<string> => {
  const file = path.join(dataDir, 'keys', name);
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(file, make(), { mode: 0o600, flag: 'wx' }).catch(() => undefined);
    return (await readFile(file, 'utf8')).trim();
  }
};

/** A key file holding base64 text, read as its bytes. */
const keyFile = async (dataDir: string, name: string, make: () => string): Promise<Uint8Array> =>
  Buffer.from(await keyText(dataDir, name, make), 'base64');

/** The environment's access-token key pair (P-256, PKCS #8 PEM); deployed, a KMS key. */
const tokenPrivateKey = async (dataDir: string, environment: Environment): Promise<KeyObject> =>
  createPrivateKey(
    await keyText(dataDir, `${environment}-token-signing.pem`, () =>
      generateKeyPairSync('ec', { namedCurve: 'P-256' })
        .privateKey.export({ format: 'pem', type: 'pkcs8' })
        .toString(),
    ),
  );

/** The environment's key of the form's answers (AES-256-GCM). */
const answersKey = (dataDir: string, environment: Environment): Promise<Uint8Array> =>
  keyFile(dataDir, `${environment}-answers.key`, newAnswerKey);

export const localBaseUrls = (config: LocalConfig): Record<Environment, string> => ({
  production: localUrl(config, PORT_OFFSETS.productionApi),
  sandbox: localUrl(config, PORT_OFFSETS.sandboxApi),
});

/** Each environment's onboarding frame address (`{onboarding_frame_url}`). */
export const localFrameUrls = (config: LocalConfig): Record<Environment, string> => ({
  production: localUrl(config, PORT_OFFSETS.productionFrame),
  sandbox: localUrl(config, PORT_OFFSETS.sandboxFrame),
});

export const localPagesUrls = (config: LocalConfig): Record<Environment, string> => ({
  production: localUrl(config, PORT_OFFSETS.productionPages),
  sandbox: localUrl(config, PORT_OFFSETS.sandboxPages),
});

/**
 * Beside a running stack (the operator tool), runs are only recorded: the stack's runner finds them
 * within a second and runs them, and its delivery re-drive hands on recorded deliveries within seconds
 * (local/event-flow.ts).
 */
const recordedOnly: Pick<Workflows, 'start'> = { start: async () => {} };
const deliveriesRecordedOnly: DeliveryQueue = { schedule: async () => {} };

/**
 * What starts runs and hands deliveries on in one environment; by default, nothing (only recorded). A
 * run's wait is ended in the table either way (`LocalWaits`), where the stack's runner looks for it.
 */
export interface LocalRunStarters {
  workflows: Pick<Workflows, 'start'>;
  deliveryQueue: (clock: Clock) => DeliveryQueue;
}

/** Where the local runner's waits of one environment end (its table). */
export const localWaits = (dynamo: DynamoDBDocumentClient, environment: Environment): LocalWaits =>
  new LocalWaits(dynamo, localTableName(environment));

/** The local identity table's people, organisations and integrations (shared by both environments). */
export const localDirectory = (dynamo: DynamoDBDocumentClient): Directory =>
  composeDirectory(dynamo, LOCAL_IDENTITY_TABLE);

/** The limiter with every refill rate divided by `scale` (RATE_REFILL_SCALE), bursts as they are. */
const slowerRefill = (limiter: RateLimiter, scale: number): RateLimiter =>
  scale === 1
    ? limiter
    : { take: (bucket, ratePerSecond, burst) => limiter.take(bucket, ratePerSecond / scale, burst) };

export const localServices = async (
  config: LocalConfig,
  startersOf: (environment: Environment) => LocalRunStarters = () => ({
    workflows: recordedOnly,
    deliveryQueue: () => deliveriesRecordedOnly,
  }),
): Promise<Record<Environment, Services>> => {
  const dynamo = createDocumentClient(localUrl(config, PORT_OFFSETS.dynamoDb));
  const s3 = createS3Client({ region: 'us-east-1', endpoint: localUrl(config, PORT_OFFSETS.blobStore) });
  // One judge for both environments' recorders: they share the event loop.
  const saturated = eventLoopSaturation();
  const entries = await Promise.all(
    ENVIRONMENTS.map(async (environment): Promise<[Environment, Services]> => {
      const starters = startersOf(environment);
      let privateKey: Promise<KeyObject> | undefined;
      const tokenKey = () => {
        privateKey ??= tokenPrivateKey(config.dataDir, environment);
        return privateKey;
      };
      const common = composeCommonPorts({
        environment,
        dynamo,
        tableName: localTableName(environment),
        // DynamoDB Local runs on the same cores as the answers: one write at a time, and none while the
        // answers keep the event loop saturated (a load test), at most a second apart.
        requestHistory: config.requestHistory
          ? { flushAfterMs: LOCAL_HISTORY_FLUSH_MS, maxWrites: 1, holdWhile: saturated }
          : 'off',
      });
      const blobs = blobStoreOver(s3, localBucket(environment));
      // One process serves every endpoint and worker: it is wired with every port.
      const ports: Ports = {
        ...common,
        blobs,
        workflows: workflowsOver({ ...starters.workflows, ...localWaits(dynamo, environment).ending }),
        rateLimiter: slowerRefill(common.rateLimiter, config.rateRefillScale),
        // The local stack alone lets webhooks go to http://127.0.0.1, localhost and [::1].
        webhookSender: { send: webhookSender({ allowLoopbackHttp: true }) },
        tokenIssuer: tokenIssuerOver(environment, async (signingInput) =>
          localEs256Signer(await tokenKey())(signingInput),
        ),
        tokenVerifier: tokenVerifierOver(environment, async () => createPublicKey(await tokenKey())),
        answerVault: answerVaultOver(() => answersKey(config.dataDir, environment)),
        deliveryQueue: deliveryQueueOver(starters.deliveryQueue(common.clock)),
        pdfs: lazyPdfInspector(blobs),
        renderer: lazyRenderer(blobs),
        // The same process answers every request: a long analysis must not hold its event loop.
        analyser: threadAnalyser(),
      };
      return [
        environment,
        {
          ports,
          settings: {
            environment,
            baseUrls: localBaseUrls(config),
            pagesBaseUrl: localPagesUrls(config)[environment],
            allowLoopbackWebhooks: true,
            delayScale: config.delayScale,
            rateLimits: config.rateLimits,
          },
        },
      ];
    }),
  );
  return Object.fromEntries(entries) as Record<Environment, Services>;
};
