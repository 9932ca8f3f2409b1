// adapter -> the one place an environment's ports are assembled from their adapters: the common ports
// every root gives, and the wired ports (keys, queues) each root builds only where its code calls them.
// The AWS composition roots and the local stack differ only in the clients and keys they pass in.

import type { KeyObject } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Environment } from '../core/model';
import type { Directory } from '../core/organisations';
import type { PeopleServices } from '../core/people/accounts';
import type {
  AnswerVault,
  BlobStore,
  Clock,
  CommonPorts,
  DeliveryQueue,
  TokenIssuer,
  TokenVerifier,
  Workflows,
} from '../core/ports';
import { BatchingRecorder, notRecording, type RecorderOptions } from '../core/request-history/recorder';
import { aesGcmAnswerVault } from './answer-vault';
import { S3BlobStore } from './blobs/s3-blob-store';
import {
  createDynamoDbStores,
  DynamoDbOrganisationStore,
  DynamoDbPeopleStore,
  DynamoDbStaffStore,
} from './dynamodb';
import { DynamoDbAttemptDelays } from './dynamodb/attempt-delays';
import { DynamoDbRateLimiter } from './dynamodb/rate-limiter';
import { type Es256Signer, es256TokenIssuer, es256TokenVerifier } from './es256-access-tokens';
import { randomIds } from './random-ids';
import { withRecentReads } from './recent-reads';
import { systemClock } from './system-clock';
import { translatingFaults } from './unavailable';

/** What every environment's common ports are built over: its table. */
export interface CommonWiring {
  environment: Environment;
  dynamo: DynamoDBDocumentClient;
  tableName: string;
  /**
   * How the request history is written (core/request-history/recorder.ts): on a short timer by a
   * long-running host, only when flushed by a Lambda; `off` records nothing (the local stack's bench switch).
   */
  requestHistory: RecorderOptions | 'off';
}

/** Each store, its SDK faults raised as the core's `DependencyUnavailable`. */
const translatingStores = <S extends object>(stores: S): S =>
  Object.fromEntries(Object.entries(stores).map(([name, store]) => [name, translatingFaults(store)])) as S;

/**
 * The ports every composition root gives (core/ports.ts `CommonPorts`): the stores over the table, the
 * clock and ids and the request history. The wired ports are built by the functions below, each only
 * where a root's code calls it.
 */
export const composeCommonPorts = (wiring: CommonWiring): CommonPorts => {
  const clock = systemClock();
  // Every port over an AWS service raises its faults as the core's (adapters/unavailable.ts).
  const stores = translatingStores(
    createDynamoDbStores(wiring.dynamo, wiring.tableName, clock, wiring.environment),
  );
  const contractReviews = withRecentReads(stores.contractReviews, clock);
  return {
    environment: wiring.environment,
    clock,
    ids: randomIds(),
    ...stores,
    contractReviews: contractReviews.store,
    contractReviewReads: contractReviews.reads,
    apiRequestRecorder:
      wiring.requestHistory === 'off'
        ? notRecording
        : new BatchingRecorder(stores.apiRequests, wiring.requestHistory),
    backOffice: {
      desk: translatingFaults(stores.backOffice.desk),
      search: translatingFaults(stores.backOffice.search),
      audit: translatingFaults(stores.backOffice.audit),
    },
  };
};

/** The blob store over an environment's bucket (S3 deployed, the local S3 twin in the local stack). */
export const blobStoreOver = (s3: S3Client, bucket: string): BlobStore =>
  translatingFaults(new S3BlobStore({ client: s3, bucket }));

/** The workflows (Step Functions deployed, the local runner in the local stack), their faults the core's. */
export const workflowsOver = (workflows: Workflows): Workflows => translatingFaults(workflows);

/** The token issuer over the environment's signer: deployed, the token function's KMS key alone. */
export const tokenIssuerOver = (environment: Environment, signer: Es256Signer): TokenIssuer =>
  translatingFaults(es256TokenIssuer(environment, signer));

/** The token verifier over a public key read on first use; a failed read is tried again on the next use. */
export const tokenVerifierOver = (
  environment: Environment,
  publicKey: () => Promise<KeyObject>,
): TokenVerifier => {
  let verifier: Promise<TokenVerifier> | undefined;
  const built = (): Promise<TokenVerifier> => {
    verifier ??= publicKey().then(
      (key) => es256TokenVerifier(environment, key),
      (error: unknown) => {
        verifier = undefined;
        throw error;
      },
    );
    return verifier;
  };
  return translatingFaults({ verify: async (token) => (await built()).verify(token) });
};

/** The vault of the form's answers over their 32-byte key, read on first use. */
export const answerVaultOver = (answersKey: () => Promise<Uint8Array>): AnswerVault =>
  translatingFaults(aesGcmAnswerVault(answersKey));

/** Where webhook deliveries wait for their next attempt (adapters/queues/delivery-queue.ts). */
export const deliveryQueueOver = (queue: DeliveryQueue): DeliveryQueue => translatingFaults(queue);

/** The identity table's people, organisations and integrations, shared by both environments. */
export const composeDirectory = (dynamo: DynamoDBDocumentClient, identityTableName: string): Directory => ({
  organisations: translatingFaults(new DynamoDbOrganisationStore(dynamo, identityTableName)),
  people: translatingFaults(new DynamoDbPeopleStore(dynamo, identityTableName)),
  staff: translatingFaults(new DynamoDbStaffStore(dynamo, identityTableName)),
  ids: randomIds(),
  clock: systemClock(),
});

/**
 * The people of the identity table, their sign-ups and sign-ins limited (unless `rateLimits` is false), new
 * passwords hashed at `passwordCost` (the service's when not given; only the local stack gives one).
 */
export const peopleServicesOver = (
  dynamo: DynamoDBDocumentClient,
  identityTableName: string,
  clock: Clock,
  { rateLimits, passwordCost }: Pick<PeopleServices, 'rateLimits' | 'passwordCost'>,
): PeopleServices => ({
  people: translatingFaults(new DynamoDbPeopleStore(dynamo, identityTableName)),
  ids: randomIds(),
  clock,
  rateLimiter: translatingFaults(new DynamoDbRateLimiter(dynamo, identityTableName, clock)),
  attemptDelays: translatingFaults(new DynamoDbAttemptDelays(dynamo, identityTableName, clock)),
  ...(passwordCost && { passwordCost }),
  rateLimits,
});
