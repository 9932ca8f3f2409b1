// adapter -> the one place an environment's ports are assembled from their adapters; the AWS
// composition root and the local stack differ only in the clients and keys they pass in.

import type { KeyObject } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Environment } from '../core/model';
import type { Directory } from '../core/organisations';
import type {
  BlobStore,
  Clock,
  ContractAnalyser,
  DeliveryQueue,
  PdfInspector,
  Ports,
  TokenVerifier,
  WebhookSender,
  Workflows,
} from '../core/ports';
import type { ContractRenderer } from '../core/rendered-contract';
import { BatchingRecorder, notRecording, type RecorderOptions } from '../core/request-history/recorder';
import { aesGcmAnswerVault } from './answer-vault';
import { S3BlobStore } from './blobs/s3-blob-store';
import {
  createDynamoDbStores,
  DynamoDbOrganisationStore,
  DynamoDbPeopleStore,
  DynamoDbStaffStore,
} from './dynamodb';
import { type Es256Signer, es256TokenIssuer, es256TokenVerifier } from './es256-access-tokens';
import { randomIds } from './random-ids';
import { withRecentReads } from './recent-reads';
import { systemClock } from './system-clock';
import { translatingFaults } from './unavailable';

export interface PortsWiring {
  environment: Environment;
  dynamo: DynamoDBDocumentClient;
  tableName: string;
  s3: S3Client;
  bucket: string;
  /**
   * Signs access tokens with the environment's private key: deployed, only the token function is given
   * a signer that can (lib/wiring.ts); any other's fails if called.
   */
  tokenSigner: Es256Signer;
  /**
   * The access-token public key, read on first use: only the hosts that check tokens are given it
   * deployed (lib/wiring.ts), and the others never ask.
   */
  tokenPublicKey: () => Promise<KeyObject>;
  /** The 32-byte key the form's answers are sealed with, read on first use. */
  answersKey: () => Promise<Uint8Array>;
  workflows: Workflows;
  /** Where webhook deliveries wait for their next attempt (adapters/queues/delivery-queue.ts). */
  deliveryQueue: (clock: Clock) => DeliveryQueue;
  /**
   * The webhook sender (adapters/webhooks/http-sender.ts), for the functions that deliver: it carries the
   * address checks, which no other bundle needs. The local stack's alone lets webhooks go to loopback.
   */
  webhookSender?: WebhookSender;
  /**
   * How the request history is written (core/request-history/recorder.ts): on a short timer by a
   * long-running host, only when flushed by a Lambda; `off` records nothing (the local stack's bench switch).
   */
  requestHistory: RecorderOptions | 'off';
  /**
   * The PDF ports over the blob store, for the functions that read PDFs (pdf.js is most of a bundle):
   * given by the composition root of a function that needs them (adapters/pdf/lazy-pdf-ports.ts).
   */
  pdfs?: (blobs: BlobStore) => PdfInspector;
  renderer?: (blobs: BlobStore) => ContractRenderer;
  /** The contract analyser, for the functions that analyse: in the calling thread (AWS) or a worker (local). */
  analyser?: ContractAnalyser;
}

/** A port this function was not built with: the call is a fault of the wiring, said as such. */
const unwired = (port: string): never => {
  throw new Error(`this function is not wired with the ${port} port (see its composition root)`);
};

/** Each store, its SDK faults raised as the core's `DependencyUnavailable`. */
const translatingStores = <S extends object>(stores: S): S =>
  Object.fromEntries(Object.entries(stores).map(([name, store]) => [name, translatingFaults(store)])) as S;

/** The token verifier over a public key read on first use; a failed read is tried again on the next use. */
const verifierOnFirstUse = (environment: Environment, publicKey: () => Promise<KeyObject>): TokenVerifier => {
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
  return { verify: async (token) => (await built()).verify(token) };
};

export const composePorts = (wiring: PortsWiring): Ports => {
  const clock = systemClock();
  // Every port over an AWS service raises its faults as the core's (adapters/unavailable.ts).
  const blobs = translatingFaults(new S3BlobStore({ client: wiring.s3, bucket: wiring.bucket }));
  const stores = translatingStores(
    createDynamoDbStores(wiring.dynamo, wiring.tableName, clock, wiring.environment),
  );
  const contractReviews = withRecentReads(stores.contractReviews, clock);
  return {
    environment: wiring.environment,
    clock,
    ids: randomIds(),
    blobs,
    pdfs: wiring.pdfs?.(blobs) ?? { inspect: () => unwired('PDF inspector') },
    renderer: wiring.renderer?.(blobs) ?? { render: () => unwired('PDF renderer') },
    analyser: wiring.analyser ?? { analyse: () => unwired('contract analyser') },
    workflows: translatingFaults(wiring.workflows),
    deliveryQueue: translatingFaults(wiring.deliveryQueue(clock)),
    tokenIssuer: translatingFaults(es256TokenIssuer(wiring.environment, wiring.tokenSigner)),
    tokenVerifier: translatingFaults(verifierOnFirstUse(wiring.environment, wiring.tokenPublicKey)),
    answerVault: translatingFaults(aesGcmAnswerVault(wiring.answersKey)),
    webhookSender: wiring.webhookSender ?? { send: () => unwired('webhook sender') },
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

/** The identity table's people, organisations and integrations, shared by both environments. */
export const composeDirectory = (dynamo: DynamoDBDocumentClient, identityTableName: string): Directory => ({
  organisations: translatingFaults(new DynamoDbOrganisationStore(dynamo, identityTableName)),
  people: translatingFaults(new DynamoDbPeopleStore(dynamo, identityTableName)),
  staff: translatingFaults(new DynamoDbStaffStore(dynamo, identityTableName)),
  ids: randomIds(),
  clock: systemClock(),
});
