// adapter -> the one place an environment's ports are assembled from their adapters; the AWS
// composition root and the local stack differ only in the clients and keys they pass in.

import type { S3Client } from '@aws-sdk/client-s3';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Environment } from '../core/model';
import type { BlobStore, PdfInspector, Ports, Workflows } from '../core/ports';
import type { ContractRenderer, RenderRequest } from '../core/rendered-contract';
import { aesGcmAnswerVault } from './answer-vault';
import { S3BlobStore } from './blobs/s3-blob-store';
import { createDynamoDbStores } from './dynamodb';
import { joseAccessTokens } from './jose-access-tokens';
import { randomIds } from './random-ids';
import { withRecentReads } from './recent-reads';
import { systemClock } from './system-clock';
import { webhookSender } from './webhooks/http-sender';

export interface PortsWiring {
  environment: Environment;
  dynamo: DynamoDBDocumentClient;
  tableName: string;
  s3: S3Client;
  bucket: string;
  signingKey: Uint8Array;
  /** The 32-byte key the form's answers are sealed with, read on first use. */
  answersKey: () => Promise<Uint8Array>;
  workflows: Workflows;
  /** The local stack alone lets webhooks go to http://127.0.0.1, localhost and [::1]. */
  allowLoopbackWebhooks: boolean;
}

/** pdf.js (1.5 MB) is loaded on the first inspection, so only the two upload endpoints pay for it. */
const lazyPdfInspector = (blobs: BlobStore): PdfInspector => {
  let inspector: Promise<PdfInspector> | undefined;
  return {
    inspect: async (blobKey, size) => {
      inspector ??= import('./pdf/pdfjs-inspector').then(({ PdfjsInspector }) => new PdfjsInspector(blobs));
      return (await inspector).inspect(blobKey, size);
    },
  };
};

/** Progress of a long render in the log (every 50 pages and the last), for whoever watches one. */
const logRenderProgress = (done: number, total: number, request: RenderRequest): void => {
  if (done % 50 === 0 || (done === total && total >= 50))
    console.log(
      JSON.stringify({
        message: 'rendering',
        id: request.contractReviewId,
        version: request.version,
        pages: `${done}/${total}`,
      }),
    );
};

/** The renderer (pdf.js and Skia) likewise loads only where a version is processed. */
const lazyRenderer = (blobs: BlobStore): ContractRenderer => {
  let renderer: Promise<ContractRenderer> | undefined;
  return {
    render: async (request) => {
      renderer ??= import('./pdf/pdfjs-renderer').then(
        ({ PdfjsRenderer }) => new PdfjsRenderer(blobs, { onPage: logRenderProgress }),
      );
      return (await renderer).render(request);
    },
  };
};

export const composePorts = (wiring: PortsWiring): Ports => {
  const clock = systemClock();
  const blobs = new S3BlobStore({ client: wiring.s3, bucket: wiring.bucket });
  const stores = createDynamoDbStores(wiring.dynamo, wiring.tableName, clock, wiring.environment);
  const contractReviews = withRecentReads(stores.contractReviews, clock);
  return {
    environment: wiring.environment,
    clock,
    ids: randomIds(),
    blobs,
    pdfs: lazyPdfInspector(blobs),
    renderer: lazyRenderer(blobs),
    workflows: wiring.workflows,
    tokens: joseAccessTokens(wiring.environment, wiring.signingKey),
    answerVault: aesGcmAnswerVault(wiring.answersKey),
    webhookSender: { send: webhookSender({ allowLoopbackHttp: wiring.allowLoopbackWebhooks }) },
    ...stores,
    contractReviews: contractReviews.store,
    contractReviewReads: contractReviews.reads,
  };
};
